import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitTesting
import Synchronization
import Testing

/// The built `rk-service` binary running as a subprocess, with its stdout and stderr collected line by line.
final class ServiceProcess: Sendable {
    static let binary = built("rk-service")

    /// A built executable of this package, found beside the test bundle or in `.build/debug`.
    static func built(_ name: String) -> URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests.appending(path: name),
            besideTests.deletingLastPathComponent().appending(path: name),
            packageRoot.appending(path: ".build/debug/" + name),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    /// The environment of this test process without anything that would configure the service.
    static var cleanEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("RESOLVEKIT_") && !$0.key.hasPrefix("OTEL_") && $0.key != "NOTIFY_SOCKET"
                && $0.key != "STATE_DIRECTORY"
        }
    }

    private let process: ChildProcess
    private let input: Pipe
    private let output = Mutex<(stdout: String, stderr: String)>(("", ""))
    /// How many of the two output pipes have reached their end.
    private let pipesEnded = Mutex(0)

    /// Starts `binary` (rk-service by default) with `arguments` and exactly `environment`.
    init(_ arguments: [String], environment: [String: String], binary: URL = ServiceProcess.binary) throws {
        input = Pipe()
        let out = Pipe()
        let err = Pipe()
        process = try ChildProcess.spawn(
            binary.path, arguments: arguments, environment: environment, standardInput: .pipe(input),
            standardOutput: .pipe(out), standardError: .pipe(err))
        collect(out.fileHandleForReading, isStandardOutput: true)
        collect(err.fileHandleForReading, isStandardOutput: false)
    }

    var pid: Int32 { process.pid }
    var stdout: String { output.withLock { $0.stdout } }
    var stderr: String { output.withLock { $0.stderr } }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Writes one line to the service's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes the service's stdin (the end of its requests).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    func signal(_ number: Int32) {
        process.send(number)
    }

    /// Waits (bounded) until the collected text satisfies `condition`; returns whether it did.
    @discardableResult
    func waitFor(
        _ stream: KeyPath<ServiceProcess, String> = \.stdout, timeout: Duration = .seconds(20),
        _ condition: (String) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        // A cancelled task's sleep returns at once: the loop would take a thread until its deadline.
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if condition(self[keyPath: stream]) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(self[keyPath: stream])
    }

    /// The answer line whose `id` is `id`, once it has been written (bounded wait).
    func answer(id: String) async throws -> [String: Any] {
        let marker = "\"id\":\"\(id)\""
        await waitFor { $0.split(separator: "\n").contains { $0.contains(marker) } }
        let line = try #require(stdoutLines.first { $0.contains(marker) }, "no answer for \(id); stderr:\n\(stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Waits (bounded) for the process to exit and returns its status; kills it if it does not.
    func exitStatus(timeout: Duration = .seconds(30)) async -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning, ContinuousClock.now < deadline {
            await sleepThroughCancellation(for: .milliseconds(20))
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("rk-service did not exit in time; stderr:\n\(stderr)")
        }
        // The process has ended, but what it wrote last may still be on its way through the pipes.
        let drained = ContinuousClock.now.advanced(by: .seconds(5))
        while pipesEnded.withLock({ $0 }) < 2, ContinuousClock.now < drained {
            await sleepThroughCancellation(for: .milliseconds(5))
        }
        return process.waitUntilExit().status
    }

    private func collect(_ handle: FileHandle, isStandardOutput: Bool) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty {
                    pipesEnded.withLock { $0 += 1 }
                    return
                }
                let text = String(decoding: data, as: UTF8.self)
                output.withLock { output in
                    if isStandardOutput { output.stdout += text } else { output.stderr += text }
                }
            }
        }
        thread.start()
    }
}
