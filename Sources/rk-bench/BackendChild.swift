import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTesting
import Synchronization

/// The reference backend in a process of its own, so the figures count only the client's memory and CPU. It shares
/// the machine's cores with the client, as a real backend would not: under load the two compete for them. It is
/// this executable started again with `--serve-backend [--stream-cap-ms N]`; it serves until its standard input
/// closes, and answers commands there, one per line, each answer ending with a line `end`:
/// - `append-times`: `<call id> <ns>` for every `tool_call_request` appended since the last `append-times`
///   (`CLOCK_MONOTONIC`);
/// - `spans`: `<session> <opened ns> <ended ns or ->` for every event stream so far;
/// - `cpu`: the child's user plus system CPU seconds so far, and the seconds its threads waited for a core;
/// - `inject <tick>`: a `session_probe` call into every session, answered with the call ids.
final class BackendChild: Sendable {
    static let flag = "--serve-backend"
    let baseURL: String
    private let process: ChildProcess
    private let input: Pipe
    private let output: Pipe
    /// Bytes read past the last line returned; commands run one at a time, the lock only makes that checkable.
    private let pending = Mutex<[UInt8]>([])

    /// Starts the child and waits for the port it listens on.
    init(streamCap: Duration? = nil) throws {
        let cap = streamCap.map { ["--stream-cap-ms", String($0.components.seconds * 1000)] } ?? []
        input = Pipe()
        output = Pipe()
        process = try ChildProcess.spawn(
            "/proc/self/exe", arguments: [Self.flag] + cap, standardInput: .pipe(input), standardOutput: .pipe(output))
        guard let line = Self.readLine(from: output, pending: pending), let port = Int(line) else {
            process.terminate()
            throw BenchFailure(message: "the backend child did not report a port")
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Sends a command and returns its answer lines. The exchange blocks on the pipes, so it runs on a thread of
    /// its own: on a cooperative thread it would take one of the client's two while the sessions are measured.
    func command(_ line: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { (answered: CheckedContinuation<[String], any Error>) in
            Thread.detachNewThread { answered.resume(with: Result { try self.exchange(line) }) }
        }
    }

    private func exchange(_ line: String) throws -> [String] {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        var lines: [String] = []
        while let answer = Self.readLine(from: output, pending: pending), answer != "end" { lines.append(answer) }
        return lines
    }

    /// The child's CPU seconds so far (every thread).
    func cpuSeconds() async throws -> Double {
        try await processTimes().cpu
    }

    /// The child's CPU seconds so far and the seconds its threads spent waiting for a core.
    func processTimes() async throws -> (cpu: Double, runQueueWait: Double) {
        let lines = try await command("cpu")
        guard lines.count == 2, let cpu = Double(lines[0]), let waited = Double(lines[1]) else {
            throw BenchFailure(message: "the backend child did not report its CPU time")
        }
        return (cpu, waited)
    }

    /// Closes the child's input, which ends it, and waits.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private static func readLine(from output: Pipe, pending: borrowing Mutex<[UInt8]>) -> String? {
        while true {
            let line = pending.withLock { pending -> String? in
                guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            if let line { return line }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { return nil }
            pending.withLock { $0 += data }
        }
    }
}

extension BackendChild {
    /// The child's body: serve on loopback, print the port, answer commands until stdin reaches its end.
    static func serve(_ arguments: [String]) async throws {
        ProcessStats.raiseOpenFileLimit()
        var cap = Duration.seconds(300)
        if let index = arguments.firstIndex(of: "--stream-cap-ms"), index + 1 < arguments.count,
            let milliseconds = Int(arguments[index + 1])
        {
            cap = .milliseconds(milliseconds)
        }
        let backend = ReferenceBackend(
            configuration: .init(
                apiKeys: [SessionsWorkload.apiKey], streamConnectionCap: cap, script: SessionsWorkload.script))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        // A thread of its own: `readLine` blocks, and in a task it would hold one of the cooperative pool's
        // threads (one of two on a 2-core machine) for the child's whole life.
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                var reported: [String: Int] = [:]
                while let line = Swift.readLine() {
                    let answer = Self.answer(line, backend: backend, reported: &reported)
                    FileHandle.standardOutput.write(Data((answer + ["end"]).joined(separator: "\n").utf8 + [10]))
                }
                finished.resume()
            }
        }
        await backend.stop()
        await server.stop()
    }

    /// Answers one command; `reported` counts, per session, the events earlier `append-times` answers covered, so
    /// each round reads only its own events, not the whole history again.
    private static func answer(_ line: String, backend: ReferenceBackend, reported: inout [String: Int]) -> [String] {
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "append-times":
            return backend.sessionIDs.flatMap { session in
                let events = backend.events(inSession: session, from: reported[session, default: 0])
                reported[session, default: 0] += events.count
                return events.filter { $0.type == "tool_call_request" }.compactMap { event in
                    callID(of: event).map { "\($0) \(MonotonicTime.nanoseconds(event.appendedAt))" }
                }
            }
        case "cpu":
            return [String(ProcessStats.cpuSeconds()), String(ProcessStats.runQueueWaitSeconds())]
        case "spans":
            return backend.sessionIDs.flatMap { session in
                backend.streamSpans(ofSession: session).map { span in
                    "\(session) \(MonotonicTime.nanoseconds(span.openedAt)) "
                        + (span.endedAt.map { String(MonotonicTime.nanoseconds($0)) } ?? "-")
                }
            }
        case "inject" where words.count == 2:
            return backend.sessionIDs.enumerated().compactMap { index, session in
                let callID = "rotation_\(index)_\(words[1])"
                let payload: JSONValue = [
                    "call_id": .string(callID), "function_name": "session_probe", "arguments": [:],
                    "timeout_seconds": 30, "human_description": "probe", "requires_approval": false,
                ]
                return backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: session)
                    ? callID : nil
            }
        default:
            return ["error unknown command \(line)"]
        }
    }

    /// The `call_id` in an event's `data:` line.
    private static func callID(of event: ReferenceBackend.RecordedEvent) -> String? {
        guard let data = event.frame.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
            let envelope = try? JSONValue(parsing: Array(data.dropFirst(6).utf8))
        else { return nil }
        return envelope["payload"]?["call_id"]?.stringValue
    }
}
