/// One flag of a tool's table: its names, the value it takes (if any), what that value may be, and its help.
///
/// Parsing, `--help`, the shell completions and the manual page are all made from these values, so a flag is
/// described once.
package struct Flag: Sendable, Hashable {
    /// What a flag's value is: how it is checked, completed and described.
    package enum Kind: Sendable, Hashable {
        /// Any text.
        case text
        /// An `http://` or `https://` URL with a host.
        case url
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A number in the range.
        case number(ClosedRange<Double>)
        /// One of these words.
        case choice([String])
        /// One of these words, or the path of a file (`--approve all|none|prompt|FILE`).
        case choiceOrFile([String])
        /// A file; with `mustExist`, ``ParsedCommandLine/checkFiles()`` requires it to be readable.
        case file(mustExist: Bool)
        /// A file the tool creates or appends to: ``ParsedCommandLine/checkFiles()`` requires it to be writable, or
        /// when it does not exist yet, its folder to exist and be writable.
        case writableFile
        /// A folder; with `absolute`, parsing requires an absolute path, and with `mustExist`,
        /// ``ParsedCommandLine/checkFiles()`` requires it to exist.
        case directory(mustExist: Bool, absolute: Bool)
    }

    /// The long name with its dashes, e.g. `--base-url`.
    package var name: String
    /// The short name with its dash, e.g. `-m`.
    package var short: String?
    /// The value's name in help, e.g. `URL`; `nil` for a switch, which takes no value.
    package var placeholder: String?
    /// What the value may be.
    package var kind: Kind
    /// One paragraph; the help and the manual page wrap it.
    package var help: String
    /// Whether the flag may be given more than once (each value is kept); otherwise the last one counts.
    package var isRepeatable: Bool
    /// Left out of `--help` and the manual page (still parsed and completed).
    package var isHidden: Bool
    /// A flag that is always refused with this message, e.g. `--api-key`, which would show a secret in `ps`.
    package var refusal: String?
    /// The environment variable that gives the value when the flag is not given (`RESOLVEKIT_CA_FILE`), read by
    /// ``variableValue(in:)``; `nil` for a flag without one.
    package var variable: String?

    /// A flag that takes a value.
    package init(
        _ name: String, short: String? = nil, value placeholder: String, kind: Kind = .text, help: String,
        repeatable: Bool = false, hidden: Bool = false, variable: String? = nil
    ) {
        self.name = name
        self.short = short
        self.placeholder = placeholder
        self.kind = kind
        self.help = help
        self.isRepeatable = repeatable
        self.isHidden = hidden
        self.variable = variable
    }

    /// A switch: present or not.
    package init(_ name: String, short: String? = nil, help: String, hidden: Bool = false, variable: String? = nil) {
        self.name = name
        self.short = short
        self.placeholder = nil
        self.kind = .text
        self.help = help
        self.isRepeatable = false
        self.isHidden = hidden
        self.variable = variable
    }

    /// A flag that is never accepted, with the message that says what to use instead. Hidden from help.
    package static func refused(_ name: String, because message: String) -> Flag {
        var flag = Flag(name, value: "VALUE", help: message, hidden: true)
        flag.refusal = message
        return flag
    }

    /// Whether the flag takes a value.
    package var takesValue: Bool { placeholder != nil }

    /// Every name it answers to: the long one, then the short one.
    package var names: [String] { [name] + (short.map { [$0] } ?? []) }

    /// `-m, --message TEXT`, as help lists it.
    package var label: String {
        let names = (short.map { [$0] } ?? []) + [name]
        return names.joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "")
    }
}

/// Flags listed together under one heading: a tool includes the groups it needs, and a group shared by several
/// tools (the connection to a backend, network settings) is defined once.
package struct FlagGroup: Sendable, Hashable {
    /// The heading in help and the manual page, e.g. `NETWORK OPTIONS`; `nil` for the tool's main `OPTIONS`.
    package var title: String?
    /// The flags, in the order help shows them.
    package var flags: [Flag]

    /// Creates a group.
    package init(_ title: String? = nil, _ flags: [Flag]) {
        self.title = title
        self.flags = flags
    }
}
