import Foundation
import Testing

@testable import ResolveKitCLI

/// The parser every tool uses: one table in, the flags, command and operands out, every mistake in the same words.
struct CommandLineParserTests {
    static let quiet = Flag("--quiet", short: "-q", help: "Say less.")
    static let level = Flag("--level", value: "N", kind: .integer(1...5), help: "How much.")
    static let ratio = Flag("--ratio", value: "R", kind: .number(0...1), help: "What part.")
    static let mode = Flag("--mode", value: "MODE", kind: .choice(["fast", "safe"]), help: "How.")
    static let root = Flag(
        "--root", value: "DIR", kind: .directory(mustExist: true, absolute: true), help: "Where.", repeatable: true)
    static let url = Flag("--url", value: "URL", kind: .url, help: "Which backend.")
    static let approve = Flag("--approve", value: "MODE", kind: .choiceOrFile(["all", "none"]), help: "Who decides.")
    static let keyFile = Flag("--key-file", value: "PATH", kind: .file(mustExist: true), help: "The key.")
    static let log = Flag("--log", value: "PATH", kind: .writableFile, help: "Where to write.")

    static let tool = CommandLineTool(
        name: "rk-test", summary: "a tool for tests", usage: ["rk-test [options] FILE..."],
        operands: .init("FILE", kind: .file(mustExist: true), help: "Files."),
        groups: [
            FlagGroup(nil, [quiet, level, ratio, mode, root, url, approve, keyFile, log]),
            FlagGroup("SECRET OPTIONS", [.apiKeyRefused]),
        ])

    static let commands = CommandLineTool(
        name: "rk-cmd", summary: "a tool with commands", usage: ["rk-cmd COMMAND"],
        commands: [.init("list", help: "List."), .init("approve", arguments: "ID...", help: "Approve.")],
        groups: [FlagGroup(nil, [quiet])])

    @Test func valuesComeAfterASpaceOrAnEqualsSign() throws {
        let parsed = try Self.tool.parse(["--level", "3", "--mode=safe", "-q", "a.swift"])
        #expect(parsed.integer(Self.level) == 3)
        #expect(parsed.value(Self.mode) == "safe")
        #expect(parsed.has(Self.quiet))
        #expect(!parsed.has(Self.url))
        #expect(parsed.operands == ["a.swift"])
    }

    @Test func aRepeatableFlagKeepsEveryValueInOrderAndAnotherFlagItsLast() throws {
        let parsed = try Self.tool.parse(["--root", "/a", "--level", "1", "--root=/b", "--level", "2"])
        #expect(parsed.values(Self.root) == ["/a", "/b"])
        #expect(parsed.integer(Self.level) == 2)
    }

    @Test func aDoubleDashEndsTheFlags() throws {
        let parsed = try Self.tool.parse(["-q", "--", "--level", "-"])
        #expect(parsed.operands == ["--level", "-"])
    }

    static let mistakes: [([String], String)] = [
        (["--levle", "3"], "unknown option '--levle'; did you mean '--level'?"),
        (["--qu"], "unknown option '--qu'; did you mean '--quiet'?"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["-x"], "unknown option '-x'"),
        (["--level"], "--level needs a value"),
        (["--level", "--quiet"], "--level needs a value"),
        (["--level", "9"], "--level expects a whole number in 1...5, got '9'"),
        (["--level", "two"], "--level expects a whole number in 1...5, got 'two'"),
        (["--ratio", "2"], "--ratio expects a number from 0 to 1, got '2'"),
        (["--mode", "slow"], "--mode expects fast or safe, got 'slow'"),
        (["--mode", "saf"], "--mode expects fast or safe, got 'saf'; did you mean 'safe'?"),
        (["--quiet=yes"], "--quiet takes no value, got '--quiet=yes'"),
        (["--root", "relative"], "--root must be absolute, got 'relative'"),
        (["--url", "agent.example.com"], "--url 'agent.example.com' is not an http:// or https:// URL"),
        (["--url", "https://"], "--url 'https://' is not an http:// or https:// URL"),
        (
            ["--api-key", "rk_secret"],
            "--api-key would show the key to every user in `ps`; use --api-key-file PATH or RESOLVEKIT_API_KEY"
        ),
    ]

    @Test(arguments: mistakes)
    func eachMistakeIsOneLineNamingIt(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Self.tool.parse(arguments) }
    }

    @Test func aRefusedFlagNeverRepeatsItsValue() {
        #expect(throws: UsageError.self) { try Self.tool.parse(["--api-key=rk_secret"]) }
        do {
            _ = try Self.tool.parse(["--api-key=rk_secret"])
        } catch {
            #expect(!error.message.contains("rk_secret"))
        }
    }

    @Test func aToolWithoutOperandsNamesAStrayWord() {
        let bare = CommandLineTool(name: "rk-bare", summary: "s", usage: [], groups: [])
        #expect(throws: UsageError("unexpected argument 'stray'")) { try bare.parse(["stray"]) }
    }

    @Test func theFirstWordIsTheCommandAndTheRestItsArguments() throws {
        let parsed = try Self.commands.parse(["-q", "approve", "a", "b"])
        #expect(parsed.command?.name == "approve")
        #expect(parsed.operands == ["a", "b"])
        #expect(throws: UsageError("unknown command 'lst'; did you mean 'list'?")) { try Self.commands.parse(["lst"]) }
        #expect(throws: UsageError("unknown command 'reboot'; the commands are 'list' or 'approve'")) {
            try Self.commands.parse(["reboot"])
        }
    }

    @Test func everyToolHasTheStandardFlags() throws {
        let parsed = try Self.commands.parse(["--version", "--generate-completion-script", "zsh", "--generate-manual"])
        #expect(parsed.has(CommandLineTool.versionFlag))
        #expect(parsed.value(CommandLineTool.completionFlag) == "zsh")
        #expect(throws: UsageError("--generate-completion-script expects bash or zsh, got 'fish'")) {
            try Self.commands.parse(["--generate-completion-script", "fish"])
        }
    }

    @Test func filesAreCheckedOnlyWhenAskedAndThenEachOneIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "key").path
        try Data("k".utf8).write(to: URL(fileURLWithPath: file))

        let fine = try Self.tool.parse(["--root", folder.path, "--key-file", file, "--approve", file, file])
        try fine.checkFiles(operands: Self.tool.operands?.kind)
        try Self.tool.parse(["--log", file]).checkFiles()
        try Self.tool.parse(["--log", folder.path + "/new.log"]).checkFiles()
        try Self.tool.parse(["--log", "relative-new.log"]).checkFiles()
        try Self.tool.parse(["--approve", "all"]).checkFiles()

        let cases: [([String], String)] = [
            (["--root", "/nonexistent/rk"], "--root /nonexistent/rk is not an existing folder"),
            (["--root", file], "--root \(file) is not an existing folder"),
            (["--key-file", "/nonexistent/key"], "--key-file /nonexistent/key does not exist"),
            (
                ["--log", "/nonexistent/rk/a.log"],
                "--log /nonexistent/rk/a.log: the folder /nonexistent/rk does not exist"
            ),
            (["--log", folder.path], "--log \(folder.path) is a folder, not a file"),
            (["--log", file + "/a.log"], "--log \(file)/a.log: the folder \(file) does not exist"),
            (
                ["--approve", "nome"],
                "--approve expects all, none or a readable file, got 'nome'; did you mean 'none'?"
            ),
            (["/nonexistent/a.swift"], "/nonexistent/a.swift does not exist"),
        ]
        for (arguments, message) in cases {
            let parsed = try Self.tool.parse(arguments)
            #expect(throws: UsageError(message)) { try parsed.checkFiles(operands: Self.tool.operands?.kind) }
        }
    }
}

/// "Did you mean …?" names one close flag, never a guess among several.
struct SuggestionTests {
    static let flags = ["--approve", "--allowed-root", "--socket", "--session", "--version", "--verify-audit"]

    @Test(
        arguments: [
            ("--aprove", "--approve"),
            ("--approev", "--approve"),
            ("--allowed", "--allowed-root"),
            ("--sokcet", "--socket"),
            ("--sesion", "--session"),
            ("--verbose", nil),
            ("--ver", nil),
            ("--x", nil),
        ] as [(String, String?)])
    func aMistypedFlagSuggestsTheOneItIsCloseTo(typed: String, expected: String?) {
        #expect(Suggestion.closest(to: typed, among: Self.flags) == expected)
    }

    @Test func editDistanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(Suggestion.editDistance(Array("socket"), Array("sokcet")) == 1)
        #expect(Suggestion.editDistance(Array("abc"), Array("")) == 3)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
