import Foundation
import ResolveKitCore
import Testing

/// `rk-install --uninstall`: removes exactly what the last install put under the prefix, never a file someone else
/// put there or changed since. One test at a time: each install runs every tool three times and copies them all, and
/// five at once would take both cores from the suites that time how fast something fails.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UninstallTests {
    static let perTool = [
        "bin/", "share/man/man1/", "share/bash-completion/completions/", "share/zsh/site-functions/_",
    ]

    static var installedPaths: [String] {
        InstallTests.installed.flatMap { tool in
            perTool.map { $0.hasSuffix("1/") ? "\($0)\(tool).1" : "\($0)\(tool)" }
        }
    }

    static let manifest = "share/resolvekit/rk-install.manifest"

    /// The paths the manifest at `path` lists: the third field of each line after its header.
    static func listed(_ path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "# rk-install manifest 1")
        return lines.dropFirst().map { String($0.split(separator: " ", maxSplits: 2)[2]) }
    }

    @Test func uninstallRemovesWhatTheInstallPutThereAndNothingElse() async throws {
        let prefix = try InstallTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let neighbour = prefix.appending(path: "bin/someone-elses-tool").path
        try FileManager.default.createDirectory(
            at: prefix.appending(path: "bin"), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: neighbour))
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: prefix.appending(path: Self.manifest).path))

        let dryRun = try await BuiltTool.run("rk-install", ["--uninstall", "--dry-run", "--prefix", prefix.path])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        for path in Self.installedPaths {
            let file = prefix.appending(path: path).path
            #expect(dryRun.stdout.contains("would remove \(file)\n"))
            #expect(FileManager.default.fileExists(atPath: file), "the dry run removed \(path)")
        }

        let run = try await BuiltTool.run("rk-install", ["--uninstall", "--prefix", prefix.path])
        #expect(run.status == 0, "\(run.stderr)")
        for path in Self.installedPaths + [Self.manifest] {
            let file = prefix.appending(path: path).path
            #expect(run.stdout.contains("removed \(file)\n"))
            #expect(!FileManager.default.fileExists(atPath: file), "\(path) is still there")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix.appending(path: "share/resolvekit").path))
        #expect(FileManager.default.fileExists(atPath: neighbour))
    }

    @Test func aFileChangedSinceTheInstallIsKeptAndNamed() async throws {
        let prefix = try InstallTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        let page = prefix.appending(path: "share/man/man1/rk-chat.1")
        let edited = try Data(contentsOf: page) + Data(".\\\" a local note\n".utf8)
        try edited.write(to: page)
        let manifest = prefix.appending(path: Self.manifest).path
        let dryRun = try await BuiltTool.run("rk-install", ["--uninstall", "--dry-run", "--prefix", prefix.path])
        #expect(dryRun.stdout.contains("would keep \(page.path) (changed since it was installed, or unreadable)\n"))
        #expect(!dryRun.stdout.contains(manifest))

        let run = try await BuiltTool.run("rk-install", ["--uninstall", "--prefix", prefix.path])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "rk-install: error: \(page.path) changed since it was installed; kept it\n"
                + "rk-install: error: \(manifest) lists what is left\n")
        #expect(try Data(contentsOf: page) == edited)
        #expect(!FileManager.default.fileExists(atPath: prefix.appending(path: "bin/rk-chat").path))
        #expect(try Self.listed(manifest) == [page.path])

        // Once the person has dealt with the file, the uninstall finishes.
        try FileManager.default.removeItem(at: page)
        let again = try await BuiltTool.run("rk-install", ["--uninstall", "--prefix", prefix.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "already gone: \(page.path)\nremoved \(manifest)\n")
    }

    @Test func withoutAnInstallThereIsNothingToUninstall() async throws {
        let prefix = try InstallTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let run = try await BuiltTool.run("rk-install", ["--uninstall", "--prefix", prefix.path])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "rk-install: error: nothing to uninstall: \(prefix.path)/\(Self.manifest) does not exist "
                + "(rk-install writes it when it installs)\n")
    }

    @Test func aMalformedManifestIsNamedWithItsLineAndNothingIsRemoved() async throws {
        let prefix = try InstallTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        let manifest = prefix.appending(path: Self.manifest).path
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try (text + "not a line of a manifest\n").write(toFile: manifest, atomically: false, encoding: .utf8)
        let lines = text.split(separator: "\n").count + 1

        let run = try await BuiltTool.run("rk-install", ["--uninstall", "--prefix", prefix.path])
        #expect(run.status == 1)
        #expect(
            run.stderr == "rk-install: error: \(manifest):\(lines): expected \"<crc32> <size> <absolute path>\"\n")
        #expect(FileManager.default.fileExists(atPath: prefix.appending(path: "bin/rk-chat").path))
    }

    @Test func theNextInstallRemovesWhatItNoLongerInstalls() async throws {
        let prefix = try InstallTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(try await BuiltTool.run("rk-install", ["--prefix", prefix.path]).status == 0)
        // As an older version would have left them: a tool this version no longer installs, one of them edited.
        let retired = prefix.appending(path: "bin/rk-retired").path
        let edited = prefix.appending(path: "bin/rk-retired-edited").path
        let bytes = Array("#!/bin/sh\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: retired))
        try Data(bytes).write(to: URL(fileURLWithPath: edited))
        let manifest = prefix.appending(path: Self.manifest).path
        let checksum = String(CRC32.checksum(bytes), radix: 16)
        let lines = [
            "\(checksum) \(bytes.count) \(retired)", "\(String(CRC32.checksum(bytes) ^ 1, radix: 16)) 10 \(edited)",
        ]
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try (text + lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: false, encoding: .utf8)

        let dryRun = try await BuiltTool.run("rk-install", ["--dry-run", "--prefix", prefix.path])
        #expect(dryRun.stdout.hasSuffix("would remove \(retired) (no longer installed)\n"), "\(dryRun.stdout)")
        #expect(FileManager.default.fileExists(atPath: retired))

        let run = try await BuiltTool.run("rk-install", ["--prefix", prefix.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("removed \(retired) (no longer installed)\n"))
        #expect(run.stdout.contains("kept \(edited) (no longer installed, but changed since it was)\n"))
        #expect(!FileManager.default.fileExists(atPath: retired))
        #expect(FileManager.default.fileExists(atPath: edited))
        #expect(
            try Self.listed(manifest).sorted() == Self.installedPaths.map { prefix.appending(path: $0).path }.sorted())
    }
}
