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
    var documentation: Documentation {
        var result = Documentation()
        var paragraphs: [[String]] = [[]]
        var section = Section.prose
        for line in lines {
            let indentation = line.text.utf8.prefix { $0 == .space || $0 == .tab }.count
            let trimmed = line.text.trimmingCharacters(in: " \t")
            if trimmed.isEmpty {
                if case .prose = section, !(paragraphs.last ?? []).isEmpty { paragraphs.append([]) }
                continue
            }
            guard trimmed.hasPrefix("- ") else {
                switch section {
                case .prose: paragraphs[paragraphs.count - 1].append(trimmed)
                case .parameter(let name, _): result.parameters[name]?.text += " " + trimmed
                default: break
                }
                continue
            }
            let item = trimmed.dropFirst(2).trimmingCharacters(in: " \t")
            let colon = item.firstIndex(of: ":")
            let key = colon.map { item[..<$0].trimmingCharacters(in: " \t") } ?? item
            let value = colon.map { item[item.index(after: $0)...].trimmingCharacters(in: " \t") } ?? ""
            let tagLocation = SourceLocation(
                file: line.location.file, line: line.location.line, column: line.location.column + indentation + 2)
            if let tagName = DocumentationTag.known[key.lowercased()] {
                let tag = DocumentationTag(name: tagName, value: value, location: tagLocation)
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
            if key.lowercased() == "parameters", value.isEmpty {
                section = .parameterList(indentation: indentation)
            } else if key.lowercased().hasPrefix("parameter "), colon != nil {
                let name = String(key.dropFirst("parameter ".count)).trimmingCharacters(in: " \t")
                result.parameters[name] = Documentation.Parameter(text: value, indentation: indentation)
                section = .parameter(name, listIndentation: nil)
            } else if let list = section.listIndentation, indentation > list, colon != nil, !key.contains(" ") {
                result.parameters[key] = Documentation.Parameter(text: value, indentation: indentation)
                section = .parameter(key, listIndentation: list)
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
    /// The text without leading and trailing characters from `set`, which holds only ASCII characters (it is
    /// compared byte by byte: a Character walk costs more than the rest of reading a doc comment).
    func trimmingCharacters(in set: String) -> String {
        let utf8 = Substring(self).utf8
        func isTrimmed(_ byte: UInt8) -> Bool { set.utf8.contains(byte) }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isTrimmed(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isTrimmed(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
