extension CommandLineTool {
    /// Reads `arguments` (without the program name) with this table. Pure: nothing is read from the file system.
    ///
    /// `--flag value` and `--flag=value` are both accepted; a value may not start with `--` unless given with `=`;
    /// `--` ends the flags. Each mistake is one ``UsageError`` in the same words in every tool.
    /// - Throws: ``UsageError`` for an unknown option (with the flag it is most likely a misspelling of), a missing
    ///   or malformed value, a word the tool does not take, or a refused flag.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        var parsed = ParsedCommandLine()
        let flags = allFlags
        var remaining = arguments[...]
        var flagsEnded = false
        while let argument = remaining.popFirst() {
            guard !flagsEnded, argument.count > 1, argument.hasPrefix("-") else {
                try take(word: argument, into: &parsed)
                continue
            }
            if argument == "--" {
                flagsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let flag = flags.first(where: { $0.name == name || $0.short == name }) else {
                throw UsageError.unknownOption(name, among: flags.filter { !$0.isHidden }.map(\.name))
            }
            if let refusal = flag.refusal { throw UsageError(refusal) }
            guard flag.takesValue else {
                if inline != nil { throw UsageError("\(flag.name) takes no value, got '\(argument)'") }
                parsed.add(flag, nil)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if let next = remaining.first, !next.hasPrefix("--") {
                value = next
                remaining.removeFirst()
            } else {
                throw UsageError("\(flag.name) needs a value")
            }
            try Self.check(value, of: flag)
            parsed.add(flag, value)
        }
        return parsed
    }

    /// A word that is not a flag: the command, an operand, or a mistake.
    private func take(word: String, into parsed: inout ParsedCommandLine) throws(UsageError) {
        if !commands.isEmpty, parsed.command == nil {
            guard let command = commands.first(where: { $0.name == word }) else {
                throw UsageError.unknownCommand(word, among: commands.map(\.name))
            }
            parsed.select(command)
        } else if operands != nil || !commands.isEmpty {
            parsed.add(operand: word)
        } else {
            throw UsageError("unexpected argument '\(word)'")
        }
    }

    /// Checks a value against its flag's kind.
    static func check(_ value: String, of flag: Flag) throws(UsageError) {
        switch flag.kind {
        case .text, .file(mustExist: false):
            return
        case .file(mustExist: true), .writableFile:
            guard value.isEmpty else { return }
            throw UsageError("\(flag.name) needs a value")
        case .directory(_, let absolute):
            guard absolute, !value.hasPrefix("/") else { return }
            throw UsageError("\(flag.name) must be absolute, got '\(value)'")
        case .url:
            guard !isHTTPURL(value) else { return }
            throw UsageError("\(flag.name) '\(value)' is not an http:// or https:// URL")
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                let bounds =
                    range.upperBound == .max
                    ? "of at least \(range.lowerBound)" : "in \(range.lowerBound)...\(range.upperBound)"
                throw UsageError("\(flag.name) expects a whole number \(bounds), got '\(value)'")
            }
        case .number(let range):
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                throw UsageError(
                    "\(flag.name) expects a number from \(Self.format(range.lowerBound)) to "
                        + "\(Self.format(range.upperBound)), got '\(value)'")
            }
        case .choice(let words):
            guard !words.contains(value) else { return }
            let list = Suggestion.list(words, conjunction: "or")
            throw UsageError(
                "\(flag.name) expects \(list), got '\(value)'" + Suggestion.phrase(for: value, among: words))
        case .choiceOrFile:
            // A word of the list, or a path: whether the file exists is for `checkFiles`.
            return
        }
    }

    /// Whether `text` is `http://` or `https://` followed by a host.
    package static func isHTTPURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = lowered.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.hasPrefix(":") && !host.contains(" ")
        }
        return false
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
