import ResolveKitCore

/// Where the backend request made in this task belongs in a trace: its parent's context (a turn, a call) and how
/// many times it was sent before. Set by the session's driver around each request it sends; read by
/// ``BackendClient``, which starts the request's client span under it and sends the `traceparent` header.
struct RequestTrace: Sendable {
    /// The context the request's span descends from; `nil` starts a trace of its own.
    var parent: SpanContext?
    /// How many times the same request was sent before (`http.request.resend_count`).
    var resendCount = 0

    /// The trace of the request made in this task.
    @TaskLocal static var current = RequestTrace()
}
