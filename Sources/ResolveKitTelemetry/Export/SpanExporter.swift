/// What became of one export attempt.
public enum SpanExportResult: Sendable, Equatable {
    /// The endpoint took the spans.
    case success
    /// The endpoint could not take them now (429, 502, 503, 504, or no answer): try again, after `after` when the
    /// endpoint said (`Retry-After`), after a backoff otherwise.
    case retry(after: Duration?)
    /// The endpoint refused them for good (400, 401, 413 …): they are dropped.
    case failure
    /// The endpoint took all but `rejected` of them, which it refused for good (OTLP's partial success): those are
    /// dropped, and nothing is sent again.
    case partialSuccess(rejected: Int)
}

/// Sends batches of spans somewhere; ``OTLPSpanExporter`` is the one that exists.
public protocol SpanExporter: Sendable {
    /// Sends one batch. Must not take longer than its own timeout: the processor waits for it.
    func export(_ spans: [FinishedSpan]) async -> SpanExportResult
    /// Sends one batch that someone waits for when `urgently` (a flush, or the last exports at shutdown): its work
    /// then runs at normal priority, not in the background. By default the same as ``export(_:)``.
    func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult
    /// Releases what the exporter holds.
    func shutdown() async
}

extension SpanExporter {
    /// Sends the batch with ``export(_:)``, however urgent.
    public func export(_ spans: [FinishedSpan], urgently: Bool) async -> SpanExportResult {
        await export(spans)
    }
}
