import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization

/// `tool-latency`: the runtime's own overhead on loopback, for an approval-free call.
/// - `call-dispatch`: from the reference backend appending a `tool_call_request` to the function starting (SSE
///   write, loopback, libcurl, SSE parse, envelope decode, journal, schema check, dispatch).
/// - `result-post`: from the function returning to the runtime having the backend's answer to the result POST.
/// Each is measured twice in the same run, on two runtimes of the same backend taking turns in blocks: one without
/// telemetry, one recording every metric and span and exporting the spans to a loopback OTLP receiver in a process
/// of its own, as a collector beside the service (``OTLPSinkChild``)
/// (`+telemetry`; `vs_off_p50`, `vs_off_p99` in %). Those rows also say how many of their calls ran while a batch
/// of spans was encoded or sent (`export_overlapped`: on two cores the export then competes with the call for
/// them), and the p99 of the other calls against the plain runtime's (`vs_off_p99_quiet`).
/// Target: under 1 ms each at p99 (the reference iOS runtime waits at least 250 ms for its batch window); telemetry
/// within 5 %.
struct ToolLatencyWorkload: Workload {
    let name = "tool-latency"
    let summary =
        "request-to-start and return-to-posted overhead of an approval-free call, without and with telemetry (us)"
    static let iterations = 2000
    /// Calls before measuring: past the call journal's capacity (4096), so the figures are those of a service that
    /// has been running a while, not of a fresh process.
    static let warmUp = 5000
    /// Calls per block; the two runtimes take turns block by block, so both see the same machine.
    static let block = 100

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        try await run(log: log, samples: nil)
    }

    /// Also writes `tool-latency.tsv`: per measured call of each runtime (`plain`, `telemetry`), its number (from
    /// 1, warm-up calls included), both figures in us, and whether an export ran during it.
    func run(log: @Sendable (String) -> Void, samples: SampleFiles?) async throws(BenchFailure) -> [Measurement] {
        do {
            return try await measure(log: log, samples: samples)
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "tool-latency: \(error)")
        }
    }

    /// One runtime measured: its session, its events, and its samples.
    final class Contender {
        let runtime: ResolveKitRuntime
        let sessionID: String
        var events: AsyncStream<ResolveKitRuntimeEvent>.Iterator
        var dispatch: [Double] = []
        var posting: [Double] = []
        /// Per measured call: whether an export of the telemetry's spans ran during it (always false without one).
        var overlapped: [Bool] = []
        let exports: ExportWatch?

        init(_ runtime: ResolveKitRuntime, exports: ExportWatch? = nil) async throws {
            self.runtime = runtime
            self.exports = exports
            try await runtime.start()
            guard let sessionID = runtime.sessionID else { throw BenchFailure(message: "no session") }
            self.sessionID = sessionID
            events = runtime.events.makeAsyncIterator()
        }

        /// Runs calls `range` through the backend; keeps their samples when `measured`.
        func call(_ range: Range<Int>, backend: ReferenceBackend, measured: Bool) async throws {
            for index in range {
                let callID = "bench_\(sessionID.prefix(8))_\(index)"
                let exportsBefore = exports?.look()
                let sentAt = Probe.now()
                let payload: JSONValue = [
                    "call_id": .string(callID), "function_name": "bench_probe",
                    "arguments": ["sent_at": .number(sentAt)], "timeout_seconds": 30, "human_description": "probe",
                    "requires_approval": false,
                ]
                _ = backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: sessionID)
                while let event = await events.next() {
                    if case .toolResultDelivered(let id) = event, id.rawValue == callID { break }
                }
                let postedAt = Probe.now()
                guard let times = Probe.times(callID) else {
                    throw BenchFailure(message: "the probe did not run for \(callID)")
                }
                var overlapped = false
                if let exports, let exportsBefore { overlapped = exports.ranBetween(exportsBefore) }
                if measured {
                    dispatch.append((times.started - sentAt) / 1000)
                    posting.append((postedAt - times.returned) / 1000)
                    self.overlapped.append(overlapped)
                }
            }
        }
    }

    private func measure(log: @Sendable (String) -> Void, samples: SampleFiles?) async throws -> [Measurement] {
        Probe.reset()
        let backend = ReferenceBackend(configuration: .init(apiKeys: ["rk_bench"]))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        // The OTLP receiver answers at once and keeps nothing: what is measured is the runtime's side.
        let receiver = try OTLPSinkChild()
        let watch = ExportWatch()
        let telemetry = try Telemetry(
            configuration: TelemetryConfiguration(
                resource: TelemetryResource(serviceName: "rk-bench"),
                traces: .init(endpoint: receiver.baseURL + "/v1/traces"),
                // The default batch (512 spans, 5 s): spans are exported while calls run, as in a service.
                batch: .init()),
            transport: CountingTransport(PlainHTTPTransport(), watch: watch))
        watch.watch(telemetry.spanProcessor)
        let exporting = Task { await telemetry.run() }
        func configuration(_ telemetry: Telemetry?) -> ResolveKitConfiguration {
            ResolveKitConfiguration(
                baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_bench" },
                deviceIDProvider: { "bench-" + UUIDText.make() }, functions: [Probe.self], stateLocation: .inMemory,
                telemetry: telemetry)
        }
        let off = try await Contender(ResolveKitRuntime(configuration: configuration(nil)))
        let on = try await Contender(ResolveKitRuntime(configuration: configuration(telemetry)), exports: watch)
        try await off.call(0..<Self.warmUp, backend: backend, measured: false)
        try await on.call(0..<Self.warmUp, backend: backend, measured: false)
        var next = Self.warmUp
        var onFirst = false
        while next < Self.warmUp + Self.iterations {
            let range = next..<min(next + Self.block, Self.warmUp + Self.iterations)
            for contender in onFirst ? [on, off] : [off, on] {
                try await contender.call(range, backend: backend, measured: true)
            }
            onFirst.toggle()
            next = range.upperBound
        }
        try samples?.write(
            name, columns: ["runtime", "call", "call_dispatch_us", "result_post_us", "export_overlapped"],
            rows: [("plain", off), ("telemetry", on)].flatMap { runtime, contender in
                contender.dispatch.indices.map { index in
                    [
                        runtime, String(Self.warmUp + index + 1), String(contender.dispatch[index]),
                        String(contender.posting[index]), contender.overlapped[index] ? "1" : "0",
                    ]
                }
            })
        await off.runtime.stop()
        await on.runtime.stop()
        await telemetry.shutdown(timeout: .seconds(5))
        await exporting.value
        let exported = telemetry.spanProcessor?.exportedCount ?? 0
        let dropped = BatchSpanProcessor.DropReason.allCases.reduce(0) {
            $0 + (telemetry.spanProcessor?.droppedCount($1) ?? 0)
        }
        receiver.stop()
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
        log(
            "tool-latency: \(Self.iterations) calls measured per runtime after \(Self.warmUp) warm-up calls each, "
                + "in blocks of \(Self.block); telemetry exported \(exported) spans, dropped \(dropped)"
                + (IdleStates.summary().map { "; idle cores: \($0)" } ?? ""))
        let dispatchOff = Self.row(name, "call-dispatch", off.dispatch)
        let postOff = Self.row(name, "result-post", off.posting)
        return [
            dispatchOff,
            Self.row(name, "call-dispatch+telemetry", on.dispatch, against: dispatchOff, overlapped: on.overlapped),
            postOff, Self.row(name, "result-post+telemetry", on.posting, against: postOff, overlapped: on.overlapped),
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
        let contender = try await Contender(ResolveKitRuntime(configuration: configuration))
        try await contender.call(0..<warmUp, backend: backend, measured: false)
        try await beforeMeasuring()
        try await contender.call(warmUp..<(warmUp + iterations), backend: backend, measured: true)
        try await afterMeasuring()
        await contender.runtime.stop()
        return (contender.dispatch, contender.posting)
    }

    /// A row of `samples`; against a `baseline`, the differences in %; with `overlapped` (per sample, whether an
    /// export of spans ran meanwhile), how many did (`export_overlapped`) and the p99 of the others against the
    /// baseline's (`vs_off_p99_quiet`).
    static func row(
        _ workload: String, _ contender: String, _ samples: [Double], against baseline: Measurement? = nil,
        overlapped: [Bool] = []
    ) -> Measurement {
        let sorted = samples.sorted()
        var details = ["p50": percentile(sorted, 0.5), "p99": percentile(sorted, 0.99)]
        if let baseline, let p50 = baseline.details["p50"], let p99 = baseline.details["p99"] {
            details["vs_off_p50"] = (percentile(sorted, 0.5) / p50 - 1) * 100
            details["vs_off_p99"] = (percentile(sorted, 0.99) / p99 - 1) * 100
            if overlapped.count == samples.count {
                let quiet = zip(samples, overlapped).filter { !$0.1 }.map(\.0).sorted()
                details["export_overlapped"] = Double(samples.count - quiet.count)
                if !quiet.isEmpty { details["vs_off_p99_quiet"] = (percentile(quiet, 0.99) / p99 - 1) * 100 }
            }
        }
        // Under 1 ms at p99; with telemetry, within 5 % of the runtime without it.
        let target =
            baseline == nil ? Measurement.Target(figure: "p99", limit: 1000) : .init(figure: "vs_off_p99", limit: 5)
        return Measurement(
            workload: workload, contender: contender, chunk: nil, value: sorted.reduce(0, +) / Double(sorted.count),
            unit: "us", details: details, target: contender.hasSuffix("floor") ? nil : target, samples: samples,
            baseline: baseline?.contender)
    }
}

/// The function measured: records when it started and returned, by call id.
struct Probe: AnyResolveKitFunction {
    static let resolveKitName = "bench_probe"
    static let resolveKitDescription = "Records timestamps for rk-bench."
    static let resolveKitRequiresApproval = false
    static let resolveKitParametersSchema: JSONObject = [
        "type": "object", "properties": ["sent_at": ["type": "number"]],
    ]

    /// Room for every call of a run from the start: growing past 12,288 entries took 5–7 ms, in the middle of
    /// whichever runtime's call crossed it (always one of the runtime with telemetry).
    private static let recorded = Mutex<[String: (started: Double, returned: Double)]>(.init(minimumCapacity: 32_768))
    private static let origin = ContinuousClock.now

    /// Nanoseconds since the process's origin on the monotonic clock.
    static func now() -> Double {
        let elapsed = origin.duration(to: .now)
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }

    static func times(_ callID: String) -> (started: Double, returned: Double)? { recorded.withLock { $0[callID] } }

    /// Forgets every call, keeping the room (a run of a series, `--runs`, starts empty and never grows the table).
    static func reset() {
        recorded.withLock { $0.removeAll(keepingCapacity: true) }
    }

    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        let started = now()
        let returned = now()
        recorded.withLock { $0[context.callID?.rawValue ?? ""] = (started, returned) }
        return "ok"
    }
}
