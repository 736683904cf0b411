import Foundation
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

@testable import ResolveKitCLI

/// `--help`, the completions and the manual page come from the same table as the parser.
struct GeneratedTextTests {
    static let tool = CommandLineParserTests.tool

    @Test func helpListsEveryVisibleFlagInItsGroupWithItsHelpBeside() {
        let help = Self.tool.help
        #expect(help.hasPrefix("rk-test: a tool for tests\n\nUSAGE:\n  rk-test [options] FILE...\n"))
        #expect(help.contains("\nARGUMENTS:\n  FILE             Files.\n"))
        #expect(help.contains("\nOPTIONS:\n  -q, --quiet      Say less.\n"))
        #expect(help.contains("\n  --level N        How much.\n"))
        #expect(help.hasSuffix("\n  -h, --help       Show this help.\n  --version        Print the version."))
        #expect(!help.contains("--generate-manual"), "a hidden flag is not in the help")
        #expect(!help.contains("--api-key"), "a refused flag is not in the help")
        #expect(!help.contains("SECRET OPTIONS"), "a group with nothing to show has no heading")
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= CommandLineTool.helpWidth })
    }

    @Test func aLongHelpWrapsUnderItsColumnAndAWideLabelGetsALineOfItsOwn() {
        let long = Flag("--a-rather-long-flag-name", value: "VALUE", help: String(repeating: "word ", count: 40))
        let tool = CommandLineTool(name: "t", summary: "s", usage: [], groups: [FlagGroup(nil, [long])])
        let lines = CommandLineTool.table([(long.label, long.help)]).split(separator: "\n")
        #expect(lines[0] == "  --a-rather-long-flag-name VALUE")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 32)) && $0.count <= 100 })
        #expect(tool.help.contains("--a-rather-long-flag-name VALUE"))
    }

    /// Asks bash to complete `words` (the last one being typed) with the tool's script, as the shell would.
    static func bashCompletes(_ tool: CommandLineTool, _ words: [String]) throws -> [String] {
        let bash = try ExternalProgram.bash.require()
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let function = "_" + tool.name.replacingOccurrences(of: "-", with: "_")
        let script = tool.completionScript(for: .bash) + """
            COMP_WORDS=(\(tool.name) \(quoted)); COMP_CWORD=\(words.count)
            \(function)
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ChildProcess.run(bash, arguments: ["--norc", "--noprofile", "-c", script])
        #expect(output.termination.status == 0, "\(output.standardError)")
        return output.standardOutput.split(separator: "\n").map(String.init).sorted()
    }

    @Test(.enabled(if: ExternalProgram.bash.shouldRun, Comment(rawValue: ExternalProgram.bash.skipNote)))
    func bashCompletesFlagsChoicesAndCommandsFromTheTable() throws {
        #expect(try Self.bashCompletes(Self.tool, ["--le"]) == ["--level"])
        #expect(try Self.bashCompletes(Self.tool, ["--mode", ""]) == ["fast", "safe"])
        #expect(try Self.bashCompletes(Self.tool, ["--level", ""]) == [])
        #expect(try Self.bashCompletes(Self.tool, ["--ver"]) == ["--version"])
        let commands = CommandLineParserTests.commands
        #expect(try Self.bashCompletes(commands, ["-q", "ap"]) == ["approve"])
        #expect(try Self.bashCompletes(commands, ["list", "ap"]) == [])
    }

    @Test(.enabled(if: ExternalProgram.zsh.shouldRun, Comment(rawValue: ExternalProgram.zsh.skipNote)))
    func theZshScriptIsValidZsh() throws {
        let zsh = try ExternalProgram.zsh.require()
        for tool in [Self.tool, CommandLineParserTests.commands] {
            let file = FileManager.default.temporaryDirectory.appending(path: "_\(tool.name)-\(UUID().uuidString)")
            try Data(tool.completionScript(for: .zsh).utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = try ChildProcess.run(zsh, arguments: ["-n", file.path])
            #expect(output.termination.status == 0, "\(output.standardError)")
        }
        #expect(Self.tool.completionScript(for: .zsh).hasPrefix("#compdef rk-test\n"))
    }

    @Test(.enabled(if: ExternalProgram.groff.shouldRun, Comment(rawValue: ExternalProgram.groff.skipNote)))
    func theManualPageRendersWithoutAWarning() throws {
        let page = Self.tool.manualPage(version: "1.2.3")
        #expect(page.hasPrefix(#".TH RK\-TEST 1 "" "rk\-test 1.2.3" "ResolveKit""#))
        #expect(page.contains(".TP\n\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR\nSay less.\n"))
        let groff = try ExternalProgram.groff.require()
        let file = FileManager.default.temporaryDirectory.appending(path: "rk-test-\(UUID().uuidString).1")
        try Data(page.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ChildProcess.run(groff, arguments: ["-man", "-Tutf8", "-ww", "-z", file.path])
        #expect(output.termination.status == 0)
        #expect(output.standardError.isEmpty, "\(output.standardError)")
    }

    @Test func roffEscapesWhatWouldBeMarkup() {
        #expect(CommandLineTool.roff(#".hidden \ back-slash …"#) == #"\&.hidden \e back\-slash \[u2026]"#)
    }
}
