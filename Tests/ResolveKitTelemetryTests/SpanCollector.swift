import ResolveKitTelemetry
import Synchronization

/// A span processor that keeps what ends, for tests of the tracer itself (not a stand-in for an exporter: the
/// exporter's tests post to a loopback receiver).
final class SpanCollector: SpanProcessor {
    private let spans = Mutex<[FinishedSpan]>([])

    func onEnd(_ span: FinishedSpan) {
        spans.withLock { $0.append(span) }
    }

    var finished: [FinishedSpan] { spans.withLock { $0 } }

    func named(_ name: String) -> FinishedSpan? { finished.first { $0.name == name } }
}
