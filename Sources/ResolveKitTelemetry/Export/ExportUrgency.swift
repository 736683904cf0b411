/// Whether the export the current task runs has become urgent since it began: a flush was asked for, or shutdown
/// began, while its batch was described or encoded on a thread at the kernel's idle priority. The span processor
/// binds it around each export; ``OTLPSpanExporter`` looks once more between encoding the batch and sending it, so
/// only the step under way when the flush came finishes at idle priority.
enum ExportUrgency {
    /// Whether the export under way is urgent now; `nil` outside a span processor's export.
    @TaskLocal static var isUrgentNow: (@Sendable () -> Bool)?

    /// Whether the current task's export is urgent now (`false` outside a span processor's export).
    static var current: Bool { isUrgentNow?() ?? false }
}
