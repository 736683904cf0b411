import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization

/// `tool-latency`: the runtime's own overhead on loopback, for an approval-free call.
/// - `call-dispatch`: from the reference backend appending a `tool_call_request` to the function starting (SSE
///   write, loopback, libcurl, SSE parse, envelope decode, journal, schema check, dispatch).
/// - `result-post`: from the function returning to the runtime having the backend's answer to the result POST.
/// Target: under 1 ms each at p99 (the reference iOS runtime waits at least 250 ms for its batch window).
struct ToolLatencyWorkload: Workload {
    let name = "tool-latency"
    let summary = "request-to-start and return-to-posted overhead of an approval-free call (us, p50/p99)"
    static let iterations = 2000
    /// Calls before measuring: past the call journal's capacity (4096), so the figures are those of a service that
    /// has been running a while, not of a fresh process.
    static let warmUp = 5000

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        do {
            return try await measure(log: log)
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "tool-latency: \(error)")
        }
    }

    private func measure(log: @Sendable (String) -> Void) async throws -> [Measurement] {
        let backend = ReferenceBackend(configuration: .init(apiKeys: ["rk_bench"]))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let (dispatch, posting) = try await Self.calls(backend, server, state: .inMemory)
        // The floor under both figures: one plain request/response on the same client and loopback server.
        var roundTrips: [Double] = []
        let health = HTTPRequest(url: server.baseURL + "/health")
        for index in 0..<(Self.iterations + 200) {
            let start = Probe.now()
            _ = try await ResolveKitRuntime.sharedHTTPClient.send(health)
            if index >= 200 { roundTrips.append((Probe.now() - start) / 1000) }
        }
        await backend.stop()
        await server.stop()
        log("tool-latency: \(Self.iterations) calls measured after \(Self.warmUp) warm-up calls")
        return [
            Self.row(name, "call-dispatch", dispatch), Self.row(name, "result-post", posting),
            Self.row(name, "http-get-floor", roundTrips),
        ]
    }

    /// Runs `warmUp` then `iterations` calls through a runtime whose state is at `state`, one at a time; returns
    /// each measured call's dispatch and result-post time (us). `beforeMeasuring` and `afterMeasuring` run just
    /// before the first measured call and just after the last.
    static func calls(
        _ backend: ReferenceBackend, _ server: LoopbackHTTPServer, state: ResolveKitConfiguration.StateLocation,
        replica: ReplicaSettings = ReplicaSettings(), warmUp: Int = warmUp, iterations: Int = iterations,
        beforeMeasuring: () async throws -> Void = {}, afterMeasuring: () async throws -> Void = {}
    ) async throws -> (dispatch: [Double], posting: [Double]) {
        var configuration = ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_bench" }, deviceIDProvider: { "bench" },
            functions: [Probe.self], stateLocation: state)
        configuration.replica = replica
        configuration.replacesOtherFunctions = true
        let runtime = ResolveKitRuntime(configuration: configuration)
        try await runtime.start()
        guard let sessionID = runtime.sessionID else { throw BenchFailure(message: "no session") }
        let delivered = runtime.events
        var iterator = delivered.makeAsyncIterator()
        var dispatch: [Double] = []
        var posting: [Double] = []
        for index in 0..<(iterations + warmUp) {
            if index == warmUp { try await beforeMeasuring() }
            let callID = "bench_\(index)"
            let sentAt = Probe.now()
            let payload: JSONValue = [
                "call_id": .string(callID), "function_name": "bench_probe", "arguments": ["sent_at": .number(sentAt)],
                "timeout_seconds": 30, "human_description": "probe", "requires_approval": false,
            ]
            _ = backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: sessionID)
            while let event = await iterator.next() {
                if case .toolResultDelivered(let id) = event, id.rawValue == callID { break }
            }
            let postedAt = Probe.now()
            guard let times = Probe.times(callID) else { throw BenchFailure(message: "the probe did not run for \(callID)") }
            if index >= warmUp {
                dispatch.append((times.started - sentAt) / 1000)
                posting.append((postedAt - times.returned) / 1000)
            }
        }
        try await afterMeasuring()
        await runtime.stop()
        return (dispatch, posting)
    }

    static func row(_ workload: String, _ contender: String, _ samples: [Double]) -> Measurement {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Measurement(
            workload: workload, contender: contender, chunk: nil, value: sorted.reduce(0, +) / Double(sorted.count),
            unit: "us", details: ["p50": percentile(0.5), "p99": percentile(0.99)])
    }
}

/// The function measured: records when it started and returned, by call id.
struct Probe: AnyResolveKitFunction {
    static let resolveKitName = "bench_probe"
    static let resolveKitDescription = "Records timestamps for rk-bench."
    static let resolveKitRequiresApproval = false
    static let resolveKitParametersSchema: JSONObject = ["type": "object", "properties": ["sent_at": ["type": "number"]]]

    private static let recorded = Mutex<[String: (started: Double, returned: Double)]>([:])
    private static let origin = ContinuousClock.now

    /// Nanoseconds since the process's origin on the monotonic clock.
    static func now() -> Double {
        let elapsed = origin.duration(to: .now)
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }

    static func times(_ callID: String) -> (started: Double, returned: Double)? { recorded.withLock { $0[callID] } }

    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        let started = now()
        let returned = now()
        recorded.withLock { $0[context.callID?.rawValue ?? ""] = (started, returned) }
        return "ok"
    }
}
