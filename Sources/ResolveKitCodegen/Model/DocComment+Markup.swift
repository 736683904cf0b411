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
    /// Read for every function and every struct property a schema describes: each line is cut into the parts it
    /// needs (``parts(of:)``), nothing more.
    var documentation: Documentation {
        var result = Documentation()
        // The prose lines so far: lines joined with spaces, paragraphs with a blank line.
        var summary = ""
        var paragraphIsEmpty = true
        var startsParagraph = false
        var section = Section.prose
        for index in lines.indices {
            let line = Self.parts(of: lines[index].text)
            if line.isBlank {
                if case .prose = section, !paragraphIsEmpty {
                    startsParagraph = true
                    paragraphIsEmpty = true
                }
                continue
            }
            guard let item = line.item else {
                switch section {
                case .prose:
                    if summary.isEmpty {
                        summary = line.text
                    } else {
                        summary += startsParagraph ? "\n\n" : " "
                        summary += line.text
                    }
                    startsParagraph = false
                    paragraphIsEmpty = false
                case .parameter(let name, _): result.parameters[name]?.text += " " + line.text
                default: break
                }
                continue
            }
            let indentation = line.indentation
            let location = lines[index].location
            let tagLocation = SourceLocation(
                file: location.file, line: location.line, column: location.column + indentation + 2)
            if let tagName = item.tagName {
                let tag = DocumentationTag(name: tagName, value: item.value, location: tagLocation)
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
            if item.isParametersKey, item.value.isEmpty {
                section = .parameterList(indentation: indentation)
                // Every later line may name a parameter: room for them up front spares regrowing the table.
                result.parameters.reserveCapacity(lines.count - index - 1)
            } else if let name = item.parameterName, item.hasColon {
                result.parameters[name] = Documentation.Parameter(text: item.value, indentation: indentation)
                section = .parameter(name, listIndentation: nil)
            } else if let list = section.listIndentation, indentation > list, item.hasColon, !item.keyHasSpace {
                let name = item.key
                result.parameters[name] = Documentation.Parameter(text: item.value, indentation: indentation)
                section = .parameter(name, listIndentation: list)
            } else {
                section = .other
            }
        }
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
