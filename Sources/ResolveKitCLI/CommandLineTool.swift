/// A tool's whole command line as a table: what it is, how it is used, its commands or operands, its flag groups
/// and the sections of its help. ``parse(_:)`` reads arguments with it; ``help``, ``completionScript(for:)`` and
/// ``manualPage(version:)`` describe it.
package struct CommandLineTool: Sendable {
    /// A first word that selects what the tool does (`rk-approve list`).
    package struct Command: Sendable, Hashable {
        /// The word.
        package var name: String
        /// Its arguments in help, e.g. `CALL_ID...`.
        package var arguments: String
        /// One paragraph.
        package var help: String

        /// Creates a command.
        package init(_ name: String, arguments: String = "", help: String) {
            self.name = name
            self.arguments = arguments
            self.help = help
        }
    }

    /// Words that are not flags, when the tool takes them (`rk-codegen <input> ...`).
    package struct Operands: Sendable, Hashable {
        /// Their name in help, e.g. `<input>`.
        package var placeholder: String
        /// What each one is: ``Flag/Kind/file(mustExist:)`` completes and checks paths.
        package var kind: Flag.Kind
        /// One paragraph.
        package var help: String

        /// Creates an operand description.
        package init(_ placeholder: String, kind: Flag.Kind = .text, help: String) {
            self.placeholder = placeholder
            self.kind = kind
            self.help = help
        }
    }

    /// A titled block of help text, shown as written (examples, exit codes, the environment).
    package struct Section: Sendable, Hashable {
        /// The heading, e.g. `EXIT CODES`.
        package var title: String
        /// Lines as they are shown, without indentation (help indents them by two spaces).
        package var body: String

        /// Creates a section.
        package init(_ title: String, _ body: String) {
            self.title = title
            self.body = body
        }
    }

    /// The program's name, e.g. `rk-chat`.
    package var name: String
    /// One line: what it is (the manual page's NAME).
    package var summary: String
    /// Paragraphs after the summary, separated by blank lines.
    package var discussion: String
    /// The usage lines, each starting with the name; a line may carry a comment after two or more spaces.
    package var usage: [String]
    /// The commands, when the first word selects one.
    package var commands: [Command]
    /// The operands, when the tool takes words that are not flags.
    package var operands: Operands?
    /// The tool's flag groups; ``standardFlags`` follow them in every tool.
    package var groups: [FlagGroup]
    /// The sections after the options.
    package var sections: [Section]

    /// Creates a table.
    package init(
        name: String, summary: String, discussion: String = "", usage: [String], commands: [Command] = [],
        operands: Operands? = nil, groups: [FlagGroup], sections: [Section] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.usage = usage
        self.commands = commands
        self.operands = operands
        self.groups = groups
        self.sections = sections
    }

    /// `--help`.
    package static let helpFlag = Flag("--help", short: "-h", help: "Show this help.")
    /// `--version`.
    package static let versionFlag = Flag("--version", help: "Print the version.")
    /// `--generate-completion-script bash|zsh`: what the install step puts where the shells find completions.
    package static let completionFlag = Flag(
        "--generate-completion-script", value: "SHELL", kind: .choice(["bash", "zsh"]),
        help: "Print the completion script for bash or zsh.", hidden: true)
    /// `--generate-manual`: the manual page in roff, as the install step puts it in `share/man/man1`.
    package static let manualFlag = Flag("--generate-manual", help: "Print the manual page (roff).", hidden: true)

    /// The flags every tool has.
    package static let standardFlags = FlagGroup(nil, [helpFlag, versionFlag, completionFlag, manualFlag])

    /// Every group, the standard flags merged into the tool's main group (or added as one).
    package var allGroups: [FlagGroup] {
        var result = groups
        if let main = result.firstIndex(where: { $0.title == nil }) {
            result[main].flags += Self.standardFlags.flags
        } else {
            result.insert(Self.standardFlags, at: 0)
        }
        return result
    }

    /// Every flag of every group.
    package var allFlags: [Flag] { allGroups.flatMap(\.flags) }

    /// The flag `name` (long or short) stands for.
    package func flag(named name: String) -> Flag? {
        allFlags.first { $0.name == name || $0.short == name }
    }
}
