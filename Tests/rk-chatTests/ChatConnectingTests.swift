import Foundation
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// `rk-chat --message` prints no connection states, so a failure it retries (a port nobody listens on, a server not
/// up yet) must be said when it happens, not only once the connect budget is spent.
@Suite(.timeLimit(.minutes(1)))
struct ChatConnectingTests {
    @Test func aRefusedPortIsSaidAtTheFirstAttemptWhileTheBudgetRuns() async throws {
        let refusing = try LoopbackRefusingPort()
        defer { refusing.close() }
        let state = FileManager.default.temporaryDirectory.appending(path: "rk-chat-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let said = try await offThePool { () throws -> (String, Duration) in
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
            environment["RESOLVEKIT_API_KEY"] = "rk_dev"
            environment["XDG_STATE_HOME"] = state.path
            let errors = Pipe()
            let started = ContinuousClock.now
            let process = try ChildProcess.spawn(
                ChatBinaryTests.binary.path,
                arguments: ["--base-url", refusing.baseURL, "--message", "What time is it?", "--approve", "all"],
                environment: environment, standardInput: .nullDevice, standardOutput: .nullDevice,
                standardError: .pipe(errors))
            defer {
                process.terminate()
                _ = process.waitUntilExit()
            }
            // Read as it comes; without the line, reading ends when rk-chat gives up (30 s) and closes the pipe.
            var text = ""
            while !(text.contains("not connected yet") && text.hasSuffix("\n")) {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return (text, ContinuousClock.now - started)
        }
        // Said within the first attempt's backoff, with the budget and the cause, long before the 30 s run out.
        #expect(said.1 < .seconds(20), "said only after \(said.1): \(said.0)")
        #expect(said.0.contains("rk-chat: not connected yet, retrying for up to 30 s: "), "\(said.0)")
        #expect(said.0.contains("Could not connect to the server"), "\(said.0)")
    }
}
