import Foundation
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// The README's install step: `rk-install` puts the tools built beside it, their manual pages and completions
/// under a prefix, and the installed tools run. One test at a time: each install checksums about 100 MB of debug-built
/// tools, and four at once held both cores for seconds while the rest of the parallel run waited.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct InstallTests {
    static let installed = ["rk-chat", "rk-service", "rk-approve", "rk-mcp", "rk-devserver", "rk-codegen"]

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rk-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func everyToolIsInstalledUnderThePrefixAndRunsFromThere() async throws {
        let prefix = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let run = try await BuiltTool.run("rk-install", ["--prefix", prefix.path])
        #expect(run.status == 0, "\(run.stderr)")
        for tool in Self.installed {
            let binary = prefix.appending(path: "bin/\(tool)").path
            let version = try await BuiltTool.run(tool, ["--version"], at: binary)
            #expect(version.status == 0)
            #expect(version.stdout.hasPrefix("\(tool) 1."))
            #expect(try Self.mode(binary) == 0o755)
            for (path, mode) in [
                ("share/man/man1/\(tool).1", 0o644), ("share/bash-completion/completions/\(tool)", 0o644),
                ("share/zsh/site-functions/_\(tool)", 0o644),
            ] {
                let file = prefix.appending(path: path).path
                #expect(try Self.mode(file) == mode, "\(path)")
                #expect(run.stdout.contains("installed \(file)\n"))
            }
        }
        // Installing again replaces every file in place.
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
    }

    @Test(.enabled(if: ExternalProgram.groff.shouldRun, Comment(rawValue: ExternalProgram.groff.skipNote)))
    func theInstalledManualPagesRenderWithoutAWarning() async throws {
        let prefix = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        let groff = try ExternalProgram.groff.require()
        for tool in Self.installed {
            let page = prefix.appending(path: "share/man/man1/\(tool).1").path
            let output = try ChildProcess.run(groff, arguments: ["-man", "-Tutf8", "-ww", "-z", page])
            #expect(output.termination.status == 0)
            #expect(output.standardError.isEmpty, "\(tool): \(output.standardError)")
        }
    }

    @Test(.enabled(if: ExternalProgram.zsh.shouldRun, Comment(rawValue: ExternalProgram.zsh.skipNote)))
    func theInstalledCompletionsAreValidBashAndZsh() async throws {
        let prefix = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        let bash = try ExternalProgram.bash.require()
        let zsh = try ExternalProgram.zsh.require()
        for tool in Self.installed {
            for (shell, path) in [
                (bash, "share/bash-completion/completions/\(tool)"), (zsh, "share/zsh/site-functions/_\(tool)"),
            ] {
                let output = try ChildProcess.run(shell, arguments: ["-n", prefix.appending(path: path).path])
                #expect(output.termination.status == 0, "\(path): \(output.standardError)")
            }
        }
    }

    @Test func theSystemdUnitRunsTheServiceWhereTheDefaultInstallPutsIt() async throws {
        let dryRun = try await BuiltTool.run("rk-install", ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Samples/rk-service/rk-service.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        let execStart = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let binary = execStart.dropFirst("ExecStart=".count).split(separator: " ").first.map(String.init)
        #expect(binary == "/usr/local/bin/rk-service")
        #expect(dryRun.stdout.contains("would install /usr/local/bin/rk-service\n"))
    }

    @Test func withoutTheBuiltToolsBesideItNothingIsInstalled() async throws {
        let alone = try Self.temporaryFolder()
        let prefix = try Self.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: alone)
            try? FileManager.default.removeItem(at: prefix)
        }
        let copy = alone.appending(path: "rk-install").path
        try FileManager.default.copyItem(atPath: BuiltTool.folder.appending(path: "rk-install").path, toPath: copy)
        let run = try await BuiltTool.run("rk-install", ["--prefix", prefix.path], at: copy)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "rk-install: error: \(alone.path)/rk-chat does not exist; build the tools first with "
                + "`swift build -c release`\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path).isEmpty)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }
}
