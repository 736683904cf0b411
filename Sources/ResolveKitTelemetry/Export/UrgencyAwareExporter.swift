/// An exporter that looks, between the steps of an export, whether it has become urgent since it began: a flush was
/// asked for, or shutdown began, while its batch was described or encoded at the kernel's idle priority. The span
/// processor gives it the way to ask, so only the step under way when the flush came finishes at idle priority.
protocol UrgencyAwareExporter: SpanExporter {
    /// Exports as ``SpanExporter/export(_:urgently:)`` does; each later step is urgent once `isUrgentNow` says so.
    func export(
        _ spans: [FinishedSpan], urgently: Bool, isUrgentNow: @escaping @Sendable () -> Bool
    ) async -> SpanExportResult
}
