extension CommandLineTool {
    /// The width `--help` wraps to.
    static let helpWidth = 100
    /// The widest flag label that keeps its help on the same line.
    static let labelColumn = 28

    /// The `--help` text: the summary and discussion, usage, commands, each flag group, then the sections.
    package var help: String {
        let commandRows = commands.map { ($0.name + " " + $0.arguments, $0.help) }
        let operandRows = operands.map { [($0.placeholder, $0.help)] } ?? []
        let groupRows = allGroups.map { group in group.flags.filter { !$0.isHidden }.map { ($0.label, $0.help) } }
        // One column for every table, so the help reads as one page.
        let labels = (commandRows + operandRows + groupRows.flatMap { $0 }).map { $0.0.count }
        let width = min(Self.labelColumn, labels.max() ?? 0)
        var blocks: [String] = []
        blocks.append(Self.wrap("\(name): \(summary)", width: Self.helpWidth))
        for paragraph in paragraphs(discussion) { blocks.append(Self.wrap(paragraph, width: Self.helpWidth)) }
        blocks.append("USAGE:\n" + usage.map { "  " + $0 }.joined(separator: "\n"))
        if !commandRows.isEmpty { blocks.append("COMMANDS:\n" + Self.table(commandRows, labelWidth: width)) }
        if !operandRows.isEmpty { blocks.append("ARGUMENTS:\n" + Self.table(operandRows, labelWidth: width)) }
        for (group, rows) in zip(allGroups, groupRows) where !rows.isEmpty {
            blocks.append((group.title ?? "OPTIONS") + ":\n" + Self.table(rows, labelWidth: width))
        }
        for section in sections {
            let body = section.body.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
            blocks.append(section.title + ":\n" + body)
        }
        return blocks.joined(separator: "\n\n")
    }

    func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n\n").map { String($0) }.filter { !$0.isEmpty }
    }

    /// Two columns: each label, then its help wrapped beside it (or below it when the label is wide).
    static func table(_ rows: [(label: String, help: String)], labelWidth: Int? = nil) -> String {
        let labelWidth = labelWidth ?? min(labelColumn, rows.map(\.label.count).max() ?? 0)
        let indent = String(repeating: " ", count: 2 + labelWidth + 2)
        var lines: [String] = []
        for (label, help) in rows {
            let wrapped = wrapLines(help, width: helpWidth - indent.count)
            let trimmed = label.hasSuffix(" ") ? String(label.dropLast()) : label
            if trimmed.count <= labelWidth {
                let padding = String(repeating: " ", count: labelWidth - trimmed.count + 2)
                lines.append("  " + trimmed + padding + (wrapped.first ?? ""))
                lines += wrapped.dropFirst().map { indent + $0 }
            } else {
                lines.append("  " + trimmed)
                lines += wrapped.map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` wrapped to `width` columns at spaces.
    static func wrap(_ text: String, width: Int) -> String {
        wrapLines(text, width: width).joined(separator: "\n")
    }

    static func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
