import Foundation
import Glibc
import ResolveKitCore
import ResolveKitChildProcess

/// Carries out an ``InstallPlan``: every file is written beside its destination and renamed over it, so a tool
/// that is running while it is replaced keeps its old file and nothing is ever half written.
struct Installer {
    /// Why an install or an uninstall stopped: a file that could not be read, made, written or removed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let plan: InstallPlan

    /// Checks that every built tool exists, and that the manifest can list the paths, before anything is written.
    private func checkSources() throws(Failure) {
        guard !plan.manifest.contains("\n") else { throw Failure(description: "the prefix contains a line break") }
        for item in plan.items {
            guard case .binary(let path) = item.source else { continue }
            guard access(path, X_OK) == 0 else {
                throw Failure(
                    description: "\(path) does not exist; build the tools first with `swift build -c release`")
            }
        }
    }

    /// Says what ``run(report:)`` would install and remove, and changes nothing.
    func dryRun(report: (String) -> Void) throws(Failure) {
        try checkSources()
        for item in plan.items { report("would install \(item.destination)") }
        let planned = Set(plan.items.map(\.destination))
        let previous = try InstalledFiles.manifest(at: plan.manifest)?.entries ?? []
        for entry in previous where !planned.contains(entry.path) && InstalledFiles.status(of: entry) == .asInstalled {
            report("would remove \(entry.path) (no longer installed)")
        }
    }

    /// Installs every item, calling `report` with each line to print; then removes what the last install put there
    /// and this one did not (unless it was changed since), and records what is installed now. When an item fails,
    /// the record still lists every file in place, the ones written so far and the last install's.
    func run(report: (String) -> Void) throws(Failure) {
        try checkSources()
        let previous = try InstalledFiles.manifest(at: plan.manifest)?.entries ?? []
        var installed: [InstallManifest.Entry] = []
        do throws(Failure) {
            for item in plan.items {
                let bytes = try Self.content(of: item)
                try Self.write(bytes, to: item.destination, mode: item.mode)
                installed.append(InstallManifest.Entry(path: item.destination, bytes: bytes))
                report("installed \(item.destination)")
            }
        } catch {
            let written = Set(installed.map(\.path))
            try? Self.record(installed + previous.filter { !written.contains($0.path) }, at: plan.manifest)
            throw error
        }
        let current = Set(installed.map(\.path))
        for entry in previous where !current.contains(entry.path) {
            switch InstalledFiles.remove(entry) {
            case .removed: report("removed \(entry.path) (no longer installed)")
            case .changed: report("kept \(entry.path) (no longer installed, but changed since it was)")
            case .alreadyGone, .failed: break
            }
        }
        try Self.record(installed, at: plan.manifest)
    }

    /// Writes the manifest at `path` listing `entries`.
    static func record(_ entries: [InstallManifest.Entry], at path: String) throws(Failure) {
        try write(Array(InstallManifest(entries: entries).text.utf8), to: path, mode: 0o644)
    }

    private static func content(of item: InstallPlan.Item) throws(Failure) -> [UInt8] {
        switch item.source {
        case .binary(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "cannot read \(path)")
            }
            return [UInt8](data)
        case .output(let tool, let arguments):
            return Array(try output(of: tool, arguments).utf8)
        }
    }

    private static func output(of tool: String, _ arguments: [String]) throws(Failure) -> String {
        let result: ChildProcess.Output
        do {
            result = try ChildProcess.run(tool, arguments: arguments)
        } catch {
            throw Failure(description: "cannot run \(tool): \(error)")
        }
        guard result.termination.reason == .exit, result.termination.status == 0, !result.standardOutput.isEmpty else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
        return result.standardOutput
    }

    static func write(_ bytes: [UInt8], to destination: String, mode: UInt32) throws(Failure) {
        do throws(AtomicFileWrite.Failure) {
            try AtomicFileWrite.write(bytes, to: destination, mode: mode)
        } catch {
            let verb = error.path == destination ? "write" : "create"
            throw Failure(description: "cannot \(verb) \(error.path): \(error.reason)")
        }
    }
}
