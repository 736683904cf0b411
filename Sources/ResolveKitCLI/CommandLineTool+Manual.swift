extension CommandLineTool {
    /// Where the install step puts the manual page, relative to the prefix.
    package var manualPath: String { "share/man/man1/\(name).1" }

    /// The manual page in roff (`man 7 man`), made from the same table as ``help``.
    package func manualPage(version: String) -> String {
        var lines = [
            ".TH \(Self.roff(name.uppercased())) 1 \"\" \"\(Self.roff(name)) \(Self.roff(version))\" \"ResolveKit\"",
            ".SH NAME",
            "\(Self.roff(name)) \\- \(Self.roff(summary))",
            ".SH SYNOPSIS",
        ]
        lines += [".nf"] + usage.map { Self.roff($0) } + [".fi"]
        if !discussion.isEmpty {
            lines.append(".SH DESCRIPTION")
            for paragraph in paragraphs(discussion) { lines += [".PP", Self.roff(paragraph)] }
        }
        if !commands.isEmpty {
            lines.append(".SH COMMANDS")
            for command in commands {
                let arguments = command.arguments.isEmpty ? "" : " \\fI" + Self.roff(command.arguments) + "\\fR"
                lines += [".TP", "\\fB\(Self.roff(command.name))\\fR" + arguments, Self.roff(command.help)]
            }
        }
        if let operands {
            lines += [".SH ARGUMENTS", ".TP", "\\fI\(Self.roff(operands.placeholder))\\fR", Self.roff(operands.help)]
        }
        for group in allGroups {
            let visible = group.flags.filter { !$0.isHidden }
            guard !visible.isEmpty else { continue }
            lines.append(".SH " + Self.roff(group.title ?? "OPTIONS"))
            for flag in visible {
                let names = flag.names.reversed().map { "\\fB" + Self.roff($0) + "\\fR" }.joined(separator: ", ")
                let value = flag.placeholder.map { " \\fI" + Self.roff($0) + "\\fR" } ?? ""
                lines += [".TP", names + value, Self.roff(flag.help)]
            }
        }
        for section in sections {
            lines += [".SH " + Self.roff(section.title), ".nf", ".RS 2"]
            lines += section.body.split(separator: "\n", omittingEmptySubsequences: false).map { Self.roff(String($0)) }
            lines += [".RE", ".fi"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text made safe for roff: backslashes and hyphens escaped, characters beyond ASCII named (`\\[u2026]`), a
    /// leading `.` or `'` protected.
    static func roff(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
