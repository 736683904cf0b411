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
        var paragraphs: [[String]] = [[]]
        var section = Section.prose
        for line in lines {
            let indentation = line.text.utf8.prefix { $0 == .space || $0 == .tab }.count
            let trimmed = line.text.trimmingSpacesAndTabs()
            if trimmed.isEmpty {
                if case .prose = section, !(paragraphs.last ?? []).isEmpty { paragraphs.append([]) }
                continue
            }
            guard trimmed.hasPrefix("- ") else {
                switch section {
                case .prose: paragraphs[paragraphs.count - 1].append(String(trimmed))
                case .parameter(let name, _): result.parameters[name]?.text += " " + trimmed
                default: break
                }
                continue
            }
            let item = trimmed.dropFirst(2).trimmingSpacesAndTabs()
            let colon = item.firstIndex(of: ":")
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
        let summary = paragraphs.filter { !$0.isEmpty }.map { $0.joined(separator: " ") }.joined(separator: "\n\n")
        result.summary = summary.isEmpty ? nil : summary
        return result
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
