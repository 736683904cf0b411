extension DocComment {
    private enum Section {
        case prose
        case parameterList(indentation: Int)
        case parameter(String, listIndentation: Int?)
        case other

        var listIndentation: Int? {
            switch self {
            case .parameterList(let indentation): indentation
            case .parameter(_, let list): list
            default: nil
            }
        }
    }

    /// Reads the summary, the `- Parameters:` list or `- Parameter x:` items and constraint tags.
    ///
    /// Read for every function and every struct property a schema describes: the parts of a line are slices of it,
    /// and only what the result keeps becomes a `String`.
    var documentation: Documentation {
        var result = Documentation()
        // The prose lines so far: lines joined with spaces, paragraphs with a blank line.
        var summary = ""
        var paragraphIsEmpty = true
        var startsParagraph = false
        var section = Section.prose
        for index in lines.indices {
            let line = lines[index]
            let indentation = line.text.utf8.prefix { $0 == .space || $0 == .tab }.count
            let trimmed = line.text.trimmingSpacesAndTabs()
            if trimmed.isEmpty {
                if case .prose = section, !paragraphIsEmpty {
                    startsParagraph = true
                    paragraphIsEmpty = true
                }
                continue
            }
            guard Self.isListItem(trimmed) else {
                switch section {
                case .prose:
                    if summary.isEmpty {
                        summary = String(trimmed)
                    } else {
                        summary += startsParagraph ? "\n\n" : " "
                        summary += trimmed
                    }
                    startsParagraph = false
                    paragraphIsEmpty = false
                case .parameter(let name, _): result.parameters[name]?.text += " " + trimmed
                default: break
                }
                continue
            }
            // `- ` is two one-byte characters.
            let item = Substring(trimmed.utf8.dropFirst(2)).trimmingSpacesAndTabs()
            let colon = Self.firstColon(in: item)
            let key = colon.map { item[..<$0].trimmingSpacesAndTabs() } ?? item
            let value = colon.map { item[item.index(after: $0)...].trimmingSpacesAndTabs() } ?? ""
            let loweredKey = key.lowercased()
            let tagLocation = SourceLocation(
                file: line.location.file, line: line.location.line, column: line.location.column + indentation + 2)
            if let tagName = DocumentationTag.known[loweredKey] {
                let tag = DocumentationTag(name: tagName, value: String(value), location: tagLocation)
                if case .parameter(let name, _) = section, let parameter = result.parameters[name],
                    indentation > parameter.indentation
                {
                    result.parameters[name]?.tags.append(tag)
                    continue
                }
                if case .prose = section {
                    result.tags.append(tag)
                    continue
                }
            }
            if loweredKey == "parameters", value.isEmpty {
                section = .parameterList(indentation: indentation)
                // Every later line may name a parameter: room for them up front spares regrowing the table.
                result.parameters.reserveCapacity(lines.count - index - 1)
            } else if loweredKey.hasPrefix("parameter "), colon != nil {
                let name = String(key.dropFirst("parameter ".count).trimmingSpacesAndTabs())
                result.parameters[name] = Documentation.Parameter(text: String(value), indentation: indentation)
                section = .parameter(name, listIndentation: nil)
            } else if let list = section.listIndentation, indentation > list, colon != nil, !key.contains(" ") {
                let name = String(key)
                result.parameters[name] = Documentation.Parameter(text: String(value), indentation: indentation)
                section = .parameter(name, listIndentation: list)
            } else {
                section = .other
            }
        }
        result.summary = summary.isEmpty ? nil : summary
        return result
    }

    /// Whether a trimmed line starts with the characters `- `. Read by byte: after `- `, an ASCII byte (or the
    /// end) starts a character of its own, so only text with a non-ASCII byte there needs the character check.
    private static func isListItem(_ trimmed: Substring) -> Bool {
        var bytes = trimmed.utf8.makeIterator()
        guard bytes.next() == .minus, bytes.next() == .space else { return false }
        guard let next = bytes.next(), next >= 0x80 else { return true }
        return trimmed.hasPrefix("- ")
    }

    /// The first `:` character of `item`. In ASCII text every byte is a character of its own (a `\r\n` pair is
    /// one, but holds no colon), so the first `:` byte is it; other text is searched by character.
    private static func firstColon(in item: Substring) -> Substring.Index? {
        let utf8 = item.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return item.firstIndex(of: ":") }
        return utf8.firstIndex(of: UInt8(ascii: ":"))
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs, as a slice (compared byte by byte: a Character walk
    /// costs more than the rest of reading a doc comment).
    func trimmingSpacesAndTabs() -> Substring {
        let text = Substring(self)
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, utf8[start] == .space || utf8[start] == .tab { start = utf8.index(after: start) }
        while end > start, utf8[utf8.index(before: end)] == .space || utf8[utf8.index(before: end)] == .tab {
            end = utf8.index(before: end)
        }
        return text[start..<end]
    }
}
