import ResolveKitCore
import ResolveKitTelemetry
import Synchronization

/// What the `telemetry` workload measures: the calls the runtime makes on its hot path, each run `count` times.
/// The same operations run in the workload (timed) and in the allocation-counting child (traced).
struct TelemetryOperations: Sendable {
    /// One measured operation: a name for the table, and a body running it `count` times.
    struct Operation: Sendable {
        let name: String
        let body: @Sendable (Int) -> Void
    }

    static let functionNames = (0..<50).map { "function_\($0)" }

    let registry = MetricsRegistry()
    let metrics: ResolveKitMetrics
    let plain: Counter<>
    let labelled: Histogram<SetLabel>

    init() throws {
        metrics = try ResolveKitMetrics(registry: registry, functionNames: Self.functionNames)
        plain = try registry.counter(MetricDescriptor("bench_plain", help: "A counter without labels."))
        labelled = try registry.histogram(
            MetricDescriptor("bench_wait_seconds", help: "A histogram by function.", unit: "s"),
            buckets: [0.001, 0.01, 0.1, 1, 10], labels: SetLabel("function", values: Self.functionNames))
    }

    /// The metric operations: no span, no I/O.
    var metricOperations: [Operation] {
        let (plain, labelled, metrics) = (plain, labelled, metrics)
        let names = Self.functionNames
        return [
            Operation(name: "nothing") { count in
                var sink = 0
                for index in 0..<count { sink &+= index }
                blackHole(sink)
            },
            Operation(name: "counter") { count in
                for _ in 0..<count { plain.increment() }
            },
            Operation(name: "histogram-by-function") { count in
                for index in 0..<count { labelled.observe(Double(index & 1023) / 1000, names[index % names.count]) }
            },
            Operation(name: "catalog-call-finished") { count in
                for index in 0..<count {
                    metrics.toolCallFinished(
                        function: names[index % names.count], outcome: .success, decidedBy: .policy,
                        duration: .microseconds(index & 4095))
                }
            },
            Operation(name: "catalog-gauges") { count in
                for _ in 0..<count {
                    metrics.approvalRequested()
                    metrics.approvalWithdrawn()
                }
            },
            Operation(name: "runtime-call-spans") { count in
                let tracer = Tracer(processor: DiscardingProcessor())
                let turn = tracer.begin(parent: .root)
                for index in 0..<count {
                    Self.runtimeCallSpans(tracer, turn: turn, function: names[index % names.count])
                }
            },
        ]
            + Self.exportOperations
    }

    /// Encoding an export batch, and compressing it, in either encoding.
    private static var exportOperations: [Operation] {
        let encodings: [OTLPEncoding] = [.protobuf, .json]
        let encode = encodings.map { encoding in
            Operation(name: "otlp-encode-span-" + encoding.rawValue.dropFirst("http/".count)) { count in
                let batch = Self.exportBatch
                let resource = TelemetryResource(serviceName: "rk-bench")
                for _ in 0..<max(1, count / batch.count) {
                    blackHole(OTLPTraceEncoding.encode(batch, resource: resource, as: encoding))
                }
            }
        }
        let compress = encodings.map { encoding in
            Operation(name: "otlp-gzip-span-" + encoding.rawValue.dropFirst("http/".count)) { count in
                let body = Self.exportBody(encoding)
                for _ in 0..<max(1, count / Self.exportBatch.count) { blackHole(Gzip.compress(body)) }
            }
        }
        return encode + compress
    }

    /// ``exportBatch`` encoded as an export's body.
    static func exportBody(_ encoding: OTLPEncoding) -> [UInt8] {
        OTLPTraceEncoding.encode(exportBatch, resource: TelemetryResource(serviceName: "rk-bench"), as: encoding)
    }

    /// A full export batch (512) of what calls end: each call's `execute_tool`, `run` and result `POST` spans, as
    /// the runtime records them.
    static let exportBatch: [FinishedSpan] = {
        let collector = CollectingProcessor()
        let tracer = Tracer(processor: collector)
        let turn = tracer.begin(parent: .root)
        for index in 0..<171 {
            let call = tracer.begin(parent: .context(turn.context))
            let run = tracer.begin(parent: .context(call.context))
            let post = tracer.begin(parent: .context(call.context))
            tracer.endFunctionRun(run, function: "function_7", errorType: nil)
            tracer.endHTTPRequest(
                post, method: "POST", redactedURL: "http://127.0.0.1:8080/v1/sessions/s_1/tool-results",
                serverAddress: "127.0.0.1", serverPort: 8080, status: 200)
            tracer.endToolCall(
                call, function: "function_7", callID: "call_\(index)", outcome: .success, decidedBy: .automatic)
        }
        return Array(collector.spans.prefix(512))
    }()

    /// What the runtime records for one approval-free call: its `execute_tool` span, its function's `run` and its
    /// result's `POST`, begun as pending spans and ended with their attributes.
    static func runtimeCallSpans(_ tracer: Tracer, turn: PendingSpan, function: String) {
        let call = tracer.begin(parent: .context(turn.context))
        let run = tracer.begin(parent: .context(call.context))
        let post = tracer.begin(parent: .context(call.context))
        tracer.endFunctionRun(run, function: function, errorType: nil)
        tracer.endHTTPRequest(
            post, method: "POST", redactedURL: "http://127.0.0.1:8080/v1/sessions/s_1/tool-results",
            serverAddress: "127.0.0.1", serverPort: 8080, status: 200)
        tracer.endToolCall(call, function: function, callID: "call_1", outcome: .success, decidedBy: .automatic)
    }

    /// A call's span, its approval and run spans, started and ended under `tracer`.
    static func callSpans(_ tracer: Tracer, parent: Span) {
        let call = tracer.startToolCall(function: "function_7", callID: "call", parent: .span(parent))
        let approval = tracer.startApproval(function: "function_7", call: call)
        approval.finishApproval(decidedBy: .policy, approved: true)
        let run = tracer.startFunctionRun(function: "function_7", call: call)
        run.end()
        call.finishToolCall(outcome: .success)
    }

    /// Starting and ending one span `count` times under `tracer`.
    static func spanOperation(_ name: String, tracer: Tracer) -> Operation {
        Operation(name: name) { count in
            for _ in 0..<count { tracer.startSpan("execute_tool function_7").end() }
        }
    }
}

/// Keeps every span that ends, to build an export batch from.
final class CollectingProcessor: SpanProcessor, Sendable {
    private let collected = Mutex<[FinishedSpan]>([])
    var spans: [FinishedSpan] { collected.withLock { $0 } }
    func onEnd(_ span: FinishedSpan) { collected.withLock { $0.append(span) } }
}

/// Keeps `value` alive so the optimizer cannot drop the loop that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
