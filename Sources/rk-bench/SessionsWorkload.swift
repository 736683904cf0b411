import Foundation
import ResolveKit
import ResolveKitChildProcess
import ResolveKitTelemetry
import ResolveKitTesting

/// `sessions`: one ``ResolveKitHost`` with many sessions, against the reference backend on loopback.
/// The backend runs in a child process (``BackendChild``), so only the client is counted.
/// - `idle-rss`, `idle-cpu`: N idle sessions with open streams (N = 100 and 1,000): resident memory per session,
///   and the CPU of the whole process over 10 s; then the same with the host's telemetry recording metrics and
///   exporting spans to a loopback OTLP receiver (`+telemetry`). Each in a process of its own (``idleChildFlag``):
///   a process that freed the sessions of an earlier measurement keeps their pages and would grow less.
/// - `concurrent-dispatch`: 100 sessions each asking one question that runs one approval-free call, all at once:
///   backend appends the `tool_call_request` → the function starts, turns per second, and per turn the CPU time of
///   the client and of the backend child (the two share the machine's cores) and the time each one's threads were
///   runnable but waited for a core (`*_run_queue_us_per_turn`, from `/proc/*/task/*/schedstat`).
/// - `rotation-gap`: streams capped at 1 s (the routine 300 s rotation, shortened): a stream's end → the next
///   stream's start, with calls injected throughout; none may be lost or run twice.
/// Targets on 2 cores: ≤ 64 KiB and < 1 % of a core for 1,000 idle sessions; dispatch p99 < 5 ms; gap p99 < 50 ms.
struct SessionsWorkload: Workload {
    let name = "sessions"
    let summary = "a host with many sessions: idle-rss, idle-cpu (100, 1,000), concurrent-dispatch (100), rotation-gap"
    static let apiKey = "rk_bench"
    /// The agent: a message with "probe" runs `session_probe` once, then answers.
    static let script = AgentScript(rules: [
        .init(.keywords(["probe"]), rounds: [.toolCalls([.init("session_probe")]), .text("Done.")])
    ])
    static let idleSeconds = 10.0

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        try await run(log: log, samples: nil)
    }

    /// Also writes `sessions-concurrent-dispatch.tsv`: per call of the measured rounds, its round (from 1), its id
    /// and its dispatch time in us.
    func run(log: @Sendable (String) -> Void, samples: SampleFiles?) async throws(BenchFailure) -> [Measurement] {
        SessionProbe.reset()
        do {
            let limit = ProcessStats.raiseOpenFileLimit()
            log("sessions: open-file limit \(limit)")
            var rows: [Measurement] = []
            for count in [100, 1000] {
                for recording in [false, true] {
                    rows += try await idleInChild(count: count, telemetry: recording, log: log)
                }
            }
            rows.append(try await concurrentDispatch(count: 100, rounds: 10, samples: samples, log: log))
            rows.append(try await rotation(count: 100, log: log))
            return rows
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "sessions: \(error)")
        }
    }

    static func configuration(baseURL: String, telemetry: Telemetry? = nil) -> ResolveKitConfiguration {
        ResolveKitConfiguration(
            baseURL: URL(string: baseURL)!, apiKeyProvider: { apiKey }, functions: [SessionProbe.self],
            stateLocation: .inMemory, telemetry: telemetry)
    }

    /// Opens the keys' sessions, a few at a time, and returns once every stream is open.
    static func open(_ keys: [String], on host: ResolveKitHost) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = keys[...]
            for _ in 0..<min(32, keys.count) {
                guard let key = pending.popFirst() else { break }
                group.addTask { _ = try await host.session(for: key) }
            }
            while try await group.next() != nil {
                guard let key = pending.popFirst() else { continue }
                group.addTask { _ = try await host.session(for: key) }
            }
        }
    }

    /// The flag that runs one idle measurement in this process: `--idle-sessions N on|off`.
    static let idleChildFlag = "--idle-sessions"

    /// Runs ``idle(count:telemetry:log:)`` in a child process and reads its rows back (one JSON object per line).
    private func idleInChild(count: Int, telemetry recording: Bool, log: @Sendable (String) -> Void) async throws
        -> [Measurement]
    {
        let arguments = [Self.idleChildFlag, String(count), recording ? "on" : "off"]
        let output = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try ChildProcess.run("/proc/self/exe", arguments: arguments) })
            }
        }
        for line in output.standardError.split(separator: "\n") { log(String(line)) }
        guard output.termination.status == 0 else {
            throw BenchFailure(message: "the idle-sessions child failed: \(output.standardError)")
        }
        return try output.standardOutput.split(separator: "\n").map { line in
            guard let row = try? JSONValue(parsing: Array(line.utf8)), let contender = row["contender"]?.stringValue,
                let value = row["value"]?.doubleValue, let unit = row["unit"]?.stringValue
            else { throw BenchFailure(message: "the idle-sessions child wrote \(line)") }
            // For 1,000 sessions: at most 64 KiB each, under 1 % of a core.
            let limit = count == 1000 ? (contender.hasPrefix("idle-rss") ? 64.0 : 1.0) : nil
            return Measurement(
                workload: name, contender: contender, chunk: nil, value: value, unit: unit,
                details: ["n": row["n"]?.doubleValue ?? Double(count)],
                target: limit.map { .init(figure: "value", limit: $0) })
        }
    }

    /// One idle measurement in this process (the child's side of ``idleInChild(count:telemetry:log:)``): rows on
    /// stdout as JSON lines.
    static func serveIdle(_ arguments: [String]) async throws {
        guard arguments.count == 2, let count = Int(arguments[0]), ["on", "off"].contains(arguments[1]) else {
            throw BenchFailure(message: "usage: \(idleChildFlag) N on|off")
        }
        _ = ProcessStats.raiseOpenFileLimit()
        let rows = try await SessionsWorkload().idle(count: count, telemetry: arguments[1] == "on") { line in
            writeError(line)
        }
        for row in rows { print(Report.jsonLine(row)) }
    }

    private func idle(count: Int, telemetry recording: Bool, log: @Sendable (String) -> Void) async throws
        -> [Measurement]
    {
        let child = try BackendChild()
        defer { child.stop() }
        let receiver = try LoopbackHTTPServer.start { _ in LoopbackResponse(status: 200) }
        let telemetry =
            recording
            ? try Telemetry(
                configuration: TelemetryConfiguration(
                    resource: TelemetryResource(serviceName: "rk-bench"),
                    traces: .init(endpoint: receiver.baseURL + "/v1/traces")),
                transport: PlainHTTPTransport()) : nil
        let exporting = Task { await telemetry?.run() }
        defer { exporting.cancel() }
        let host = ResolveKitHost(
            configuration: Self.configuration(baseURL: child.baseURL, telemetry: telemetry),
            options: .init(maxOpenSessions: count + 1, idleTimeout: nil))
        // One session first, so one-time costs (libcurl, registration, first allocations) are not counted.
        try await Self.open(["warm-up"], on: host)
        try await Task.sleep(for: .seconds(1))
        let before = ProcessStats.residentKiB()
        try await Self.open((0..<count).map { "user-\($0)" }, on: host)
        try await Task.sleep(for: .seconds(2))
        let perSession = (ProcessStats.residentKiB() - before) / Double(count)
        let cpuBefore = ProcessStats.cpuSeconds()
        let started = ContinuousClock.now
        try await Task.sleep(for: .seconds(Self.idleSeconds))
        let seconds = (ContinuousClock.now - started).inSeconds
        let cpuPercent = (ProcessStats.cpuSeconds() - cpuBefore) / seconds * 100
        let open = host.openSessionKeys.count
        await host.drain(timeout: .seconds(5))
        await telemetry?.shutdown(timeout: .seconds(5))
        await exporting.value
        await receiver.stop()
        guard open == count + 1 else {
            throw BenchFailure(message: "only \(open) of \(count + 1) sessions stayed open")
        }
        let suffix = recording ? "+telemetry" : ""
        log("sessions: \(count) idle sessions\(suffix): \(Int(perSession)) KiB each, \(cpuPercent) % of a core")
        return [
            Measurement(
                workload: name, contender: "idle-rss" + suffix, chunk: nil, value: perSession, unit: "KiB/session",
                details: ["n": Double(count)]),
            Measurement(
                workload: name, contender: "idle-cpu" + suffix, chunk: nil, value: cpuPercent, unit: "%",
                details: ["n": Double(count)]),
        ]
    }
}
