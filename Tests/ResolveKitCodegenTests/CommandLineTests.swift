import Foundation
import ResolveKitChildProcess
import Testing

/// Runs the built `rk-codegen` binary: exit codes, outputs, `--check`, `--manifest`, `--help`.
struct CommandLineTests {
    struct Run {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests.appending(path: "rk-codegen"),
            besideTests.deletingLastPathComponent().appending(path: "rk-codegen"),
            packageRoot.appending(path: ".build/debug/rk-codegen"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    static let lights = """
        /// Turn the lights on or off.
        /// - Parameter on: Whether they should be on.
        // @ResolveKit(name: "set_lights")
        struct SetLights: ResolveKitFunction {
            func perform(on: Bool) async throws {}
        }

        """

    /// A fresh directory holding `files` (relative path → text); the caller removes it.
    static func directory(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appending(path: "rk-codegen-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    static func run(_ arguments: [String], in directory: URL? = nil) async throws -> Run {
        let path = directory?.path
        let output = try await offThePool {
            try ChildProcess.run(binary.path, arguments: arguments, currentDirectory: path)
        }
        return Run(code: output.termination.status, stdout: output.standardOutput, stderr: output.standardError)
    }

    @Test func helpShowsAnExampleAndTheExitCodes() async throws {
        let run = try await Self.run(["--help"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("EXAMPLE:"))
        #expect(run.stdout.contains("// @ResolveKit(name: \"set_lights\", timeout: 60, requiresApproval: true)"))
        #expect(run.stdout.contains("3  --check found the output stale"))
    }

    static let usageErrors: [([String], String)] = [
        ([], "rk-codegen: error: no input files or directories given"),
        (["a.swift"], "rk-codegen: error: --output FILE is required"),
        (["a.swift", "--output"], "rk-codegen: error: --output needs a value"),
        (["a.swift", "-o", "b.swift", "--verbose"], "rk-codegen: error: unknown option '--verbose'"),
        (
            ["a.swift", "-o", "b.swift", "--chek"],
            "rk-codegen: error: unknown option '--chek'; did you mean '--check'?"
        ),
        (
            ["a.swift", "-o", "b.swift", "--access=open"],
            "rk-codegen: error: --access expects internal or public, got 'open'"
        ),
        (["/nonexistent/rk", "--output", "/tmp/x.swift"], "rk-codegen: error: /nonexistent/rk does not exist"),
    ]

    @Test("usage errors exit with 64 and say what is wrong", arguments: usageErrors)
    func usageError(arguments: [String], message: String) async throws {
        let run = try await Self.run(arguments)
        #expect(run.code == 64)
        #expect(run.stderr == message + "\nSee rk-codegen --help.\n")
    }

    @Test func versionPrintsThePackageVersion() async throws {
        let run = try await Self.run(["--version"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("rk-codegen 1."))
    }

    @Test func sourceErrorsExitWith1AndPrintPositionsWithoutWriting() async throws {
        let root = try Self.directory([
            "Bad.swift": "/// Doc.\n// @ResolveKit(name: \"kb_search\", timeout: 0)\nstruct B: ResolveKitFunction {}\n"
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appending(path: "Out.swift")
        let run = try await Self.run(["Bad.swift", "--output", output.path], in: root)
        #expect(run.code == 1)
        #expect(
            run.stderr == """
                Bad.swift:2:22: error: function name 'kb_search' is reserved by the backend
                Bad.swift:2:44: error: timeout must be between 1 and 300 seconds, not 0
                Bad.swift:3:8: error: struct 'B' has no perform(...) method

                """)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func warningsArePrintedButTheOutputIsStillWritten() async throws {
        let root = try Self.directory(["Lights.swift": Self.lights + "let pattern = /\"/\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await Self.run(["Lights.swift", "-o", "Out.swift"], in: root)
        #expect(run.code == 0)
        #expect(run.stderr == "Lights.swift:7:16: warning: unterminated string literal\n")
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "Out.swift").path))
    }

    /// A file that is not Swift (a manifest, a schema) given as an input is named, exit 4, not scanned as Swift into
    /// an empty registry.
    @Test func anInputThatIsNotASwiftFileIsRefused() async throws {
        let root = try Self.directory(["Lights.swift": Self.lights, "tools.json": "{}"])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await Self.run(["Lights.swift", "tools.json", "-o", "Out.swift"], in: root)
        #expect(run.code == 4)
        #expect(
            run.stderr
                == "rk-codegen: error: tools.json is not a .swift file: give Swift sources, or folders of them\n")
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Out.swift").path))
    }

    /// An output that cannot be written is named with the system's reason, exit 4, never a Foundation error.
    @Test(arguments: [("Sources", "Is a directory"), ("Lights.swift/Out.swift", "Not a directory")])
    func anOutputThatCannotBeWrittenIsNamedWithTheSystemsReason(output: String, reason: String) async throws {
        let root = try Self.directory(["Lights.swift": Self.lights, "Sources/Keep.txt": "kept"])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await Self.run(["Lights.swift", "-o", output], in: root)
        #expect(run.code == 4)
        #expect(run.stderr.hasPrefix("rk-codegen: error: cannot write "), "\(run.stderr)")
        #expect(run.stderr.contains(reason), "\(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func aFunctionThatNeedsApprovalWithATimeoutTooShortForAPersonIsWarnedAbout() async throws {
        let root = try Self.directory([
            "Logs.swift": """
            /// Reads the log.
            // @ResolveKit(name: "read_log", timeout: 15)
            struct ReadLog: ResolveKitFunction { func perform() async throws {} }

            /// Says the time.
            // @ResolveKit(name: "time", timeout: 5, requiresApproval: false)
            struct Time: ResolveKitFunction { func perform() async throws {} }

            """
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await Self.run(["Logs.swift", "-o", "Out.swift"], in: root)
        #expect(run.code == 0)
        #expect(
            run.stderr == """
                Logs.swift:2:43: warning: timeout 15 is too short for a function that needs approval: the backend's \
                timeout includes the wait for a person's decision, so the prompt would show less than 15 seconds; \
                use 60 or more

                """)
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "Out.swift").path))
    }

    @Test func directoriesAreSearchedRecursivelyAndTheOutputIsNotScanned() async throws {
        let root = try Self.directory(["Sources/A/Lights.swift": Self.lights, "Sources/A/Sub/Notes.txt": "not swift"])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appending(path: "Sources/A/Generated/ResolveKitAutoRegistry.swift")
        let manifest = root.appending(path: "tools.json")
        let first = try await Self.run(
            ["Sources", "-o", output.path, "--manifest", manifest.path, "--module-name", "A"], in: root)
        #expect(first.code == 0)
        #expect(first.stderr.isEmpty)
        let generated = try String(contentsOf: output, encoding: .utf8)
        #expect(generated.contains("extension SetLights: AnyResolveKitFunction {"))
        #expect(generated.contains("module A."))
        let json = try String(contentsOf: manifest, encoding: .utf8)
        #expect(json.contains("\"name\": \"set_lights\""))
        #expect(json.contains("\"module\": \"A\""))
        let second = try await Self.run(["Sources", "-o", output.path, "--module-name", "A"], in: root)
        #expect(second.code == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == generated)
    }

    @Test func filesDeepInSubdirectoriesAreFoundAndOnlyTheOutputItselfIsLeftOut() async throws {
        let dim = Self.lights.replacingOccurrences(of: "set_lights", with: "dim_lights")
            .replacingOccurrences(of: "SetLights", with: "DimLights")
        let root = try Self.directory([
            "Sources/A/Lights.swift": Self.lights,
            // Named like the output, but another file: it is scanned.
            "Sources/A/Deep/Er/Registry.swift": dim,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appending(path: "Sources/A/Registry.swift")
        let run = try await Self.run(["Sources", "-o", output.path, "--module-name", "A"], in: root)
        #expect(run.code == 0, "\(run.stderr)")
        let generated = try String(contentsOf: output, encoding: .utf8)
        #expect(generated.contains("extension SetLights: AnyResolveKitFunction {"))
        #expect(generated.contains("extension DimLights: AnyResolveKitFunction {"))
        #expect(try await Self.run(["Sources", "-o", output.path, "--module-name", "A"], in: root).code == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == generated, "the output is never scanned itself")
    }

    @Test func anUnchangedOutputIsNotRewritten() async throws {
        let root = try Self.directory(["Lights.swift": Self.lights])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appending(path: "Out.swift")
        #expect(try await Self.run(["Lights.swift", "-o", output.path], in: root).code == 0)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.path)
        #expect(try await Self.run(["Lights.swift", "-o", output.path], in: root).code == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect(attributes[.modificationDate] as? Date == past)
    }

    @Test func checkPassesWhenFreshAndPrintsADiffWhenStale() async throws {
        let root = try Self.directory(["Lights.swift": Self.lights])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appending(path: "Out.swift")
        #expect(try await Self.run(["Lights.swift", "-o", output.path], in: root).code == 0)
        let fresh = try await Self.run(["Lights.swift", "-o", output.path, "--check"], in: root)
        #expect(fresh.code == 0)
        #expect(fresh.stdout.isEmpty)

        let before = try String(contentsOf: output, encoding: .utf8)
        try Self.lights.replacingOccurrences(of: "set_lights", with: "switch_lights")
            .write(to: root.appending(path: "Lights.swift"), atomically: true, encoding: .utf8)
        let stale = try await Self.run(["Lights.swift", "-o", output.path, "--check"], in: root)
        #expect(stale.code == 3)
        #expect(stale.stdout.hasPrefix("--- \(output.path)\n+++ \(output.path) (generated)\n@@ "))
        #expect(stale.stdout.contains("\n-    static let resolveKitName: String = \"set_lights\"\n"))
        #expect(stale.stdout.contains("\n+    static let resolveKitName: String = \"switch_lights\"\n"))
        #expect(stale.stderr.contains("generated files are stale"))
        #expect(try String(contentsOf: output, encoding: .utf8) == before)
    }

    @Test func checkTreatsAMissingOutputAsStale() async throws {
        let root = try Self.directory(["Lights.swift": Self.lights])
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try await Self.run(["Lights.swift", "-o", "Missing.swift", "--check"], in: root)
        #expect(run.code == 3)
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Missing.swift").path))
    }
}
