import Foundation
import Glibc
import ResolveKitChildProcess

/// Carries out an ``InstallPlan``: every file is written beside its destination and renamed over it, so a tool
/// that is running while it is replaced keeps its old file and nothing is ever half written.
struct Installer {
    /// A file that could not be made or written.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let plan: InstallPlan

    /// Checks that every built tool exists before anything is written.
    func checkSources() throws(Failure) {
        for item in plan.items {
            guard case .binary(let path) = item.source else { continue }
            guard access(path, X_OK) == 0 else {
                throw Failure(
                    description: "\(path) does not exist; build the tools first with `swift build -c release`")
            }
        }
    }

    /// Installs every item, calling `report` with each destination once it is in place.
    func run(report: (String) -> Void) throws(Failure) {
        try checkSources()
        for item in plan.items {
            let bytes: [UInt8]
            switch item.source {
            case .binary(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw Failure(description: "cannot read \(path)")
                }
                bytes = [UInt8](data)
            case .output(let tool, let arguments):
                bytes = Array(try Self.output(of: tool, arguments).utf8)
            }
            try Self.write(bytes, to: item.destination, mode: item.mode)
            report(item.destination)
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

    private static func write(_ bytes: [UInt8], to destination: String, mode: UInt32) throws(Failure) {
        let folder = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create \(folder): \(error.localizedDescription)")
        }
        let temporary = folder + "/.\((destination as NSString).lastPathComponent).rk-install-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else {
            throw Failure(description: "cannot write \(destination): \(String(cString: strerror(errno)))")
        }
        var remaining = bytes[...]
        var failure: Int32 = 0
        while !remaining.isEmpty, failure == 0 {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno != EINTR { failure = errno }
            if written > 0 { remaining = remaining.dropFirst(written) }
        }
        // The mode asked for, whatever the umask took away.
        if failure == 0, fchmod(descriptor, mode_t(mode)) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, destination) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw Failure(description: "cannot write \(destination): \(String(cString: strerror(failure)))")
        }
    }
}
