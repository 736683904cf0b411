/// A command-line mistake. Every tool reports it the same way: `<tool>: error: <message>`, then
/// `See <tool> --help.`, and exits with ``exitCode`` (64, `EX_USAGE`).
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one line that names the flag or word, e.g. `unknown option '--aprove'; did you mean
    /// '--approve'?`.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }

    /// Creates an error (the labelled form some tests use).
    package init(message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }

    /// The exit code of a usage error (`EX_USAGE` in sysexits.h).
    package static let exitCode: Int32 = 64

    /// The two lines a tool prints to stderr.
    package func report(for tool: String) -> String {
        "\(tool): error: \(message)\nSee \(tool) --help.\n"
    }

    /// `unknown option '--x'`, with the flag it is most likely a misspelling of.
    static func unknownOption(_ name: String, among candidates: [String]) -> UsageError {
        UsageError("unknown option '\(name)'" + Suggestion.phrase(for: name, among: candidates))
    }

    /// `unknown command 'x'`, with the command it is most likely a misspelling of.
    static func unknownCommand(_ word: String, among commands: [String]) -> UsageError {
        let list = Suggestion.list(commands.map { "'\($0)'" }, conjunction: "or")
        let suggestion = Suggestion.phrase(for: word, among: commands)
        return UsageError(
            "unknown command '\(word)'" + (suggestion.isEmpty ? "; the commands are \(list)" : suggestion))
    }
}
