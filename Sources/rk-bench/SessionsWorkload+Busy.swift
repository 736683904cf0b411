import Foundation
import ResolveKit
import ResolveKitCore
import ResolveKitTesting

extension SessionsWorkload {
    /// `count` sessions ask at once, `rounds` times (after one round not measured); each turn runs one call.
    func concurrentDispatch(count: Int, rounds: Int, log: @Sendable (String) -> Void) async throws -> Measurement {
        let script = AgentScript(rules: [.init(.keywords(["probe"]), rounds: [.toolCalls([.init("session_probe")]), .text("Done.")])])
        let backend = ReferenceBackend(configuration: .init(apiKeys: [Self.apiKey], script: script))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let host = ResolveKitHost(
            configuration: Self.configuration(baseURL: server.baseURL), options: .init(maxOpenSessions: count))
        let keys = (0..<count).map { "user-\($0)" }
        try await Self.open(keys, on: host)
        var dispatch: [Double] = []
        var turnsPerSecond: [Double] = []
        for round in 0...rounds {
            let started = ContinuousClock.now
            let calls = try await withThrowingTaskGroup(of: [String].self) { group in
                for key in keys { group.addTask { try await host.ask("probe \(round)", as: key).toolCalls.map(\.id) } }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            let seconds = Self.seconds(ContinuousClock.now - started)
            guard calls.count == count else { throw BenchFailure(message: "\(calls.count) calls ran for \(count) turns") }
            guard round > 0 else { continue }
            turnsPerSecond.append(Double(count) / seconds)
            let appended = Self.appendTimes(backend, sessions: try await sessionIDs(keys, host))
            for call in calls {
                guard let start = SessionProbe.record(call).firstStart, let sent = appended[call] else {
                    throw BenchFailure(message: "no timing for call \(call)")
                }
                dispatch.append(Self.seconds(start - sent) * 1e6)
            }
        }
        await host.drain(timeout: .seconds(5))
        await backend.stop()
        await server.stop()
        let sorted = dispatch.sorted()
        let rate = turnsPerSecond.sorted()[turnsPerSecond.count / 2]
        log("sessions: \(count) concurrent turns: \(Int(rate)) turns/s, dispatch p99 \(Int(Self.percentile(sorted, 0.99))) us")
        return Measurement(
            workload: name, contender: "concurrent-dispatch", chunk: nil, value: sorted.reduce(0, +) / Double(sorted.count),
            unit: "us",
            details: [
                "n": Double(count), "p50": Self.percentile(sorted, 0.5), "p99": Self.percentile(sorted, 0.99),
                "turns_per_second": rate,
            ])
    }

    private func sessionIDs(_ keys: [String], _ host: ResolveKitHost) async throws -> [String] {
        var ids: [String] = []
        for key in keys {
            guard let id = try await host.session(for: key).sessionID else { throw BenchFailure(message: "no session for \(key)") }
            ids.append(id)
        }
        return ids
    }

    /// When the backend appended each `tool_call_request`, by call id.
    static func appendTimes(_ backend: ReferenceBackend, sessions: [String]) -> [String: ContinuousClock.Instant] {
        var times: [String: ContinuousClock.Instant] = [:]
        for session in sessions {
            for event in backend.events(inSession: session) where event.type == "tool_call_request" {
                guard let data = event.frame.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
                    let envelope = try? JSONValue(parsing: Array(data.dropFirst(6).utf8)),
                    let callID = envelope["payload"]?["call_id"]?.stringValue
                else { continue }
                times[callID] = event.appendedAt
            }
        }
        return times
    }

    /// `count` sessions whose streams the backend ends every second, with a call injected into each session every
    /// 100 ms for `seconds`: the gap between a stream's end and the next one's start, and lost or repeated calls.
    func rotation(count: Int, seconds: Int = 6, log: @Sendable (String) -> Void) async throws -> Measurement {
        let backend = ReferenceBackend(configuration: .init(apiKeys: [Self.apiKey], streamConnectionCap: .seconds(1)))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let host = ResolveKitHost(
            configuration: Self.configuration(baseURL: server.baseURL), options: .init(maxOpenSessions: count))
        let keys = (0..<count).map { "rotating-\($0)" }
        try await Self.open(keys, on: host)
        let sessions = try await sessionIDs(keys, host)
        var injected: [String] = []
        for tick in 0..<(seconds * 10) {
            for (index, session) in sessions.enumerated() {
                let callID = "rotation_\(index)_\(tick)"
                let payload: JSONValue = [
                    "call_id": .string(callID), "function_name": "session_probe", "arguments": [:],
                    "timeout_seconds": 30, "human_description": "probe", "requires_approval": false,
                ]
                if backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: session) {
                    injected.append(callID)
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = await pollUntil(timeout: .seconds(15)) { injected.allSatisfy { SessionProbe.record($0).count > 0 } }
        let runs = injected.map { SessionProbe.record($0).count }
        var gaps: [Double] = []
        for session in sessions {
            let spans = backend.streamSpans(ofSession: session)
            for (previous, next) in zip(spans, spans.dropFirst()) {
                guard let ended = previous.endedAt else { continue }
                gaps.append(Self.seconds(next.openedAt - ended) * 1000)
            }
        }
        await host.drain(timeout: .seconds(5))
        await backend.stop()
        await server.stop()
        let sorted = gaps.sorted()
        let lost = runs.filter { $0 == 0 }.count
        let duplicates = runs.reduce(0) { $0 + max(0, $1 - 1) }
        log("sessions: \(gaps.count) rotations, gap p99 \(Self.percentile(sorted, 0.99)) ms, lost \(lost), duplicates \(duplicates)")
        return Measurement(
            workload: name, contender: "rotation-gap", chunk: nil,
            value: sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count), unit: "ms",
            details: [
                "n": Double(count), "p50": Self.percentile(sorted, 0.5), "p99": Self.percentile(sorted, 0.99),
                "lost": Double(lost), "duplicates": Double(duplicates), "rotations": Double(gaps.count),
            ])
    }
}
