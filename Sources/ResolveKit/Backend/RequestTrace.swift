import ResolveKitCore

/// Where a backend request belongs in a trace: its parent's context (a turn, a call) and how many times it was sent
/// before. The session's driver gives one with each request it sends; ``BackendClient`` begins the request's client
/// span under it and sends the `traceparent` header.
struct RequestTrace: Sendable {
    /// The context the request's span descends from; `nil` starts a trace of its own.
    var parent: SpanContext?
    /// How many times the same request was sent before (`http.request.resend_count`).
    var resendCount = 0
}
