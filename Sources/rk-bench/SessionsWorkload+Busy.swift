import Foundation
import ResolveKit

extension SessionsWorkload {
    /// `count` sessions ask at once, `rounds` times (after one round not measured); each turn runs one call. With
    /// `samples`, every call's dispatch time goes there too, by round.
    func concurrentDispatch(
        count: Int, rounds: Int, samples: SampleFiles?, log: @Sendable (String) -> Void
    ) async throws -> Measurement {
        let child = try BackendChild()
        defer { child.stop() }
        let host = ResolveKitHost(
            configuration: Self.configuration(baseURL: child.baseURL), options: .init(maxOpenSessions: count))
        let keys = (0..<count).map { "user-\($0)" }
        try await Self.open(keys, on: host)
        var dispatch: [Double] = []
        var sampleRows: [[String]] = []
        var turnsPerSecond: [Double] = []
        var clientCPU = 0.0
        var backendCPU = 0.0
        var clientWait = 0.0
        var backendWait = 0.0
        for round in 0...rounds {
            let backendBefore = try await child.processTimes()
            let started = ContinuousClock.now
            let cpuBefore = ProcessStats.cpuSeconds()
            let waitBefore = ProcessStats.runQueueWaitSeconds()
            let calls = try await withThrowingTaskGroup(of: [String].self) { group in
                for key in keys {
                    group.addTask { try await host.ask("probe \(round)", as: key).toolCalls.map(\.id.rawValue) }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            let seconds = (ContinuousClock.now - started).inSeconds
            guard calls.count == count else {
                throw BenchFailure(message: "\(calls.count) calls ran for \(count) turns")
            }
            guard round > 0 else { continue }
            clientCPU += ProcessStats.cpuSeconds() - cpuBefore
            clientWait += ProcessStats.runQueueWaitSeconds() - waitBefore
            let backendAfter = try await child.processTimes()
            backendCPU += backendAfter.cpu - backendBefore.cpu
            backendWait += backendAfter.runQueueWait - backendBefore.runQueueWait
            turnsPerSecond.append(Double(count) / seconds)
            let appended = try await Self.appendTimes(child)
            for call in calls {
                guard let start = SessionProbe.record(call).firstStart, let sent = appended[call] else {
                    throw BenchFailure(message: "no timing for call \(call)")
                }
                dispatch.append(Double(MonotonicTime.nanoseconds(start) - sent) / 1000)
                sampleRows.append([String(round), call, String(dispatch[dispatch.count - 1])])
            }
        }
        try samples?.write("sessions-concurrent-dispatch", columns: ["round", "call", "dispatch_us"], rows: sampleRows)
        await host.drain(timeout: .seconds(5))
        let sorted = dispatch.sorted()
        let rate = turnsPerSecond.sorted()[turnsPerSecond.count / 2]
        log(
            "sessions: \(count) concurrent turns: \(Int(rate)) turns/s, dispatch p99 \(Int(Self.percentile(sorted, 0.99))) us"
        )
        return Measurement(
            workload: name, contender: "concurrent-dispatch", chunk: nil,
            value: sorted.reduce(0, +) / Double(sorted.count),
            unit: "us",
            details: [
                "n": Double(count), "p50": Self.percentile(sorted, 0.5), "p99": Self.percentile(sorted, 0.99),
                "turns_per_second": rate, "client_cpu_us_per_turn": clientCPU / Double(count * rounds) * 1e6,
                "backend_cpu_us_per_turn": backendCPU / Double(count * rounds) * 1e6,
                "client_run_queue_us_per_turn": clientWait / Double(count * rounds) * 1e6,
                "backend_run_queue_us_per_turn": backendWait / Double(count * rounds) * 1e6,
            ],
            target: .init(figure: "p99", limit: 5000), samples: dispatch)
    }

    /// When the child appended each `tool_call_request`, by call id, in `CLOCK_MONOTONIC` nanoseconds.
    static func appendTimes(_ child: BackendChild) async throws -> [String: Int64] {
        var times: [String: Int64] = [:]
        for line in try await child.command("append-times") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let nanoseconds = Int64(fields[1]) else { continue }
            times[String(fields[0])] = nanoseconds
        }
        return times
    }

    /// `count` sessions whose streams the backend ends every second, with a call injected into each session every
    /// 100 ms for `seconds`: the gap between a stream's end and the next one's start, and lost or repeated calls.
    func rotation(count: Int, seconds: Int = 6, log: @Sendable (String) -> Void) async throws -> Measurement {
        let child = try BackendChild(streamCap: .seconds(1))
        defer { child.stop() }
        let host = ResolveKitHost(
            configuration: Self.configuration(baseURL: child.baseURL), options: .init(maxOpenSessions: count))
        try await Self.open((0..<count).map { "rotating-\($0)" }, on: host)
        var injected: [String] = []
        for tick in 0..<(seconds * 10) {
            injected += try await child.command("inject \(tick)")
            try await Task.sleep(for: .milliseconds(100))
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(15))
        while clock.now < deadline, !injected.allSatisfy({ SessionProbe.record($0).count > 0 }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let runs = injected.map { SessionProbe.record($0).count }
        var spans: [String: [(opened: Int64, ended: Int64?)]] = [:]
        for line in try await child.command("spans") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let opened = Int64(fields[1]) else { continue }
            spans[String(fields[0]), default: []].append((opened, Int64(fields[2])))
        }
        let gaps = spans.values.flatMap { spans in
            zip(spans, spans.dropFirst()).compactMap { previous, next in
                previous.ended.map { Double(next.opened - $0) / 1e6 }
            }
        }
        await host.drain(timeout: .seconds(5))
        let sorted = gaps.sorted()
        let lost = runs.filter { $0 == 0 }.count
        let duplicates = runs.reduce(0) { $0 + max(0, $1 - 1) }
        log(
            "sessions: \(gaps.count) rotations, gap p99 \(Self.percentile(sorted, 0.99)) ms, lost \(lost), duplicates \(duplicates)"
        )
        return Measurement(
            workload: name, contender: "rotation-gap", chunk: nil,
            value: sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count), unit: "ms",
            details: [
                "n": Double(count), "p50": Self.percentile(sorted, 0.5), "p99": Self.percentile(sorted, 0.99),
                "lost": Double(lost), "duplicates": Double(duplicates), "rotations": Double(gaps.count),
                "calls": Double(injected.count),
            ],
            target: .init(figure: "p99", limit: 50))
    }
}
