/// The response shapes of the real backend (WireProtocol §3).
enum BackendReply {
    static let jsonHeaders = [(name: "content-type", value: "application/json")]

    static func json(_ status: Int, _ body: WireJSON, headers: [(name: String, value: String)] = []) -> LoopbackResponse
    {
        LoopbackResponse(status: status, headers: jsonHeaders + headers, body: .bytes(body.bytes(.compact)))
    }

    /// `{"detail":"<text>"}`.
    static func detail(_ status: Int, _ text: String) -> LoopbackResponse {
        json(status, .object([("detail", .string(text))]))
    }

    /// 403 `{"detail":{"code":"chat_unavailable","message":"Chat is unavailable, try again later"}}`.
    static var chatUnavailable: LoopbackResponse {
        json(
            403,
            .object([
                (
                    "detail",
                    .object([
                        ("code", .string("chat_unavailable")),
                        ("message", .string("Chat is unavailable, try again later")),
                    ])
                )
            ]))
    }

    /// 422 `{"detail":[…]}`.
    static func validation(_ issues: [ValidationIssue]) -> LoopbackResponse {
        json(422, .object([("detail", .array(issues.map(\.wire)))]))
    }

    static let sessionNotFound = detail(404, "Session not found")
    static let sessionExpired = detail(410, "Session expired")

    /// Starlette's answer to an unhandled exception.
    static func internalError(_ status: Int = 500) -> LoopbackResponse {
        LoopbackResponse(
            status: status, headers: [(name: "content-type", value: "text/plain; charset=utf-8")],
            body: .bytes(Array("Internal Server Error".utf8)))
    }

    /// The body the real backend would send with `status`, for injected failures.
    static func injected(_ status: Int) -> LoopbackResponse {
        switch status {
        case 401: detail(401, "Invalid client token")
        case 403: chatUnavailable
        case 404: sessionNotFound
        case 409: detail(409, "A turn is already in progress")
        case 410: sessionExpired
        case 429: detail(429, "Client token rate limit exceeded")
        case 500...: internalError(status)
        default: detail(status, "Injected failure")
        }
    }
}
