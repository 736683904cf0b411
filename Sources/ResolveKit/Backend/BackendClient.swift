import ResolveKitHTTP
import ResolveKitTelemetry

/// The backend's REST endpoints as typed calls (WireProtocol §4). Stateless: the caller passes the session and
/// its capability token.
struct BackendClient: Sendable {
    let http: HTTPClient
    /// The base URL without a trailing slash; every path, `events_url` included, is joined to it (§4.5).
    let baseURL: String
    let apiKey: String
    let timeout: Duration
    /// Trust, client identity, pins, proxy, extra headers and observer for every call and the event stream.
    let network: NetworkSettings
    /// Starts each request's client span (under the parent its ``RequestTrace`` names); `nil` starts none, and a
    /// request then carries its parent's `traceparent` unchanged.
    let tracer: Tracer?
    /// The base URL without credentials, its host and port: worked out once for every request's span.
    private let spanTarget: (url: String, host: String?, port: Int?)

    init(
        http: HTTPClient, baseURL: String, apiKey: String, timeout: Duration,
        network: NetworkSettings = NetworkSettings(), tracer: Tracer? = nil
    ) {
        self.http = http
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.timeout = timeout
        self.network = network
        self.tracer = tracer
        let endpoint = tracer == nil ? nil : try? EndpointURL(parsing: self.baseURL)
        spanTarget = (EndpointURL.redacted(self.baseURL), endpoint?.host, endpoint?.port)
    }

    /// Opens the session's event stream with the same network settings as every call.
    func eventStreamTransport() -> EventStreamTransport {
        .http(http, network: network)
    }

    /// `GET /v1/sdk/compat`; `nil` when the backend is too old to have it (a 404 in the backend's JSON shape). A 404
    /// of anything else (a web server's page) is thrown: the base URL does not point at a ResolveKit backend.
    func compatibility() async throws(BackendError) -> CompatibilityInfo? {
        do {
            return try await call(.get, "/v1/sdk/compat", as: CompatibilityInfo.self)
        } catch where BackendFailurePolicy.isOlderBackendWithoutCompatibility(error) {
            return nil
        }
    }

    /// `PUT /v1/functions/bulk`: replaces the app's functions.
    func registerFunctions(_ body: FunctionBulkSync) async throws(BackendError) {
        _ = try await send(.put, "/v1/functions/bulk", body: body.json)
    }

    /// `GET /v1/functions`: the names of the app's active functions (§4.4), or `nil` when the backend does not have
    /// the endpoint (a 404 in its JSON shape).
    func activeFunctionNames() async throws(BackendError) -> [String]? {
        let bytes: [UInt8]
        do {
            bytes = try await send(.get, "/v1/functions")
        } catch where BackendFailurePolicy.isOlderBackendWithoutCompatibility(error) {
            return nil
        }
        guard let items = (try? JSONValue(parsing: bytes))?.arrayValue else {
            throw BackendError(
                code: .invalidResponse, endpoint: "GET /v1/functions", message: "The answer is not a JSON array")
        }
        return items.compactMap { item in item["is_active"]?.boolValue == false ? nil : item["name"]?.stringValue }
    }

    /// `POST /v1/sessions` (201).
    func createSession(
        _ body: SessionCreateRequest, trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> SessionResponse {
        try await call(.post, "/v1/sessions", body: body.json, as: SessionResponse.self, trace: trace)
    }

    /// `PATCH /v1/sessions/{id}/context`.
    func patchContext(_ session: SessionAccess, _ body: SessionContextPatch) async throws(BackendError) {
        _ = try await send(.patch, "/v1/sessions/\(session.id)/context", body: body.json, session: session)
    }

    /// `GET /v1/sessions/{id}/localization?locale=`.
    func localization(_ session: SessionAccess, locale: String?) async throws(BackendError) -> LocalizationResponse {
        let query = locale.map { "?locale=" + Self.percentEncoded($0) } ?? ""
        return try await call(.get, "/v1/sessions/\(session.id)/localization" + query, session: session, as: LocalizationResponse.self)
    }

    /// `GET /v1/sessions/{id}/messages`: the whole transcript.
    func messages(
        _ session: SessionAccess, trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> [SessionMessage] {
        try await call(
            .get, "/v1/sessions/\(session.id)/messages", session: session, as: [SessionMessage].self, trace: trace)
    }

    /// `POST /v1/sessions/{id}/messages` (202).
    func submitMessage(
        _ session: SessionAccess, _ body: MessageSubmitRequest, trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> MessageAccepted {
        try await call(
            .post, "/v1/sessions/\(session.id)/messages", body: body.json, session: session,
            as: MessageAccepted.self, trace: trace)
    }

    /// `POST /v1/sessions/{id}/tool-results`.
    func submitToolResult(
        _ session: SessionAccess, _ body: ToolResultSubmission, trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> ToolResultAcknowledgement {
        try await call(
            .post, "/v1/sessions/\(session.id)/tool-results", body: body.json, session: session,
            as: ToolResultAcknowledgement.self, trace: trace)
    }

    /// `POST /v1/sessions/{id}/feedback` (201); `true` when the session already had feedback (409, §4.11).
    func submitFeedback(_ session: SessionAccess, _ body: FeedbackSubmission) async throws(BackendError) -> Bool {
        do {
            _ = try await send(.post, "/v1/sessions/\(session.id)/feedback", body: body.json, session: session)
            return false
        } catch where error.status == 409 {
            return true
        }
    }

    /// The stream URL: the base URL joined with the session's root-relative `events_url`.
    func eventsURL(for path: String) -> String { baseURL + (path.hasPrefix("/") ? path : "/" + path) }

    /// The headers of every call: the bearer key, JSON, and the capability token for session-scoped calls.
    func headers(session: SessionAccess?, accept: String = "application/json") -> HTTPHeaders {
        var headers = HTTPHeaders()
        // Room for what a request adds: its content type, `traceparent` and `tracestate`.
        headers.reserveCapacity(6)
        headers.add(name: "Authorization", value: "Bearer " + apiKey)
        headers.add(name: "Accept", value: accept)
        if let session { headers.add(name: "X-Resolvekit-Chat-Capability", value: session.token.rawValue) }
        return headers
    }

    private func call<Response: WireDecodable>(
        _ method: HTTPMethod, _ path: String, body: JSONValue? = nil, session: SessionAccess? = nil,
        as type: Response.Type, trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> Response {
        try Self.decode(try await send(method, path, body: body, session: session, trace: trace), method, path)
    }

    // The request's bookkeeping before and after the exchange is in functions of its own, never inlined: a task
    // allocates an async function's frame whole, with room for every path, and with the failures built here it was
    // 5.8 KiB, taken from `malloc` for every request.
    private func send(
        _ method: HTTPMethod, _ path: String, body: JSONValue? = nil, session: SessionAccess? = nil,
        trace: RequestTrace = RequestTrace()
    ) async throws(BackendError) -> [UInt8] {
        let (request, span) = prepare(method, path, body: body, session: session, trace: trace)
        let exchange: Result<HTTPCollectedResponse, HTTPError>
        do {
            exchange = .success(try await http.send(request, maxBodyBytes: 8 * 1024 * 1024))
        } catch {
            exchange = .failure(error)
        }
        return try settle(exchange, span, method, path, trace).get()
    }

    /// The request to send, with its headers (and `traceparent` from its client span, begun here when tracing).
    @inline(never)
    private func prepare(
        _ method: HTTPMethod, _ path: String, body: JSONValue?, session: SessionAccess?, trace: RequestTrace
    ) -> (HTTPRequest, PendingSpan?) {
        var headers = headers(session: session)
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let span = tracer?.begin(parent: trace.parent.map(SpanParent.context) ?? .root)
        if let context = span?.context ?? trace.parent {
            headers.add(name: "traceparent", value: context.traceparent)
            if let state = context.tracestate { headers.add(name: "tracestate", value: state) }
        }
        let request = HTTPRequest(
            method: method, url: baseURL + path, headers: headers, body: body?.serializedBytes(), timeout: timeout,
            network: network)
        return (request, span)
    }

    /// Ends the request's span and reads the exchange: the body of a 2xx, else the failure naming the endpoint.
    @inline(never)
    private func settle(
        _ exchange: Result<HTTPCollectedResponse, HTTPError>, _ span: PendingSpan?, _ method: HTTPMethod,
        _ path: String, _ trace: RequestTrace
    ) -> Result<[UInt8], BackendError> {
        // Only a failure names its endpoint: describing it costs more than a request's other bookkeeping.
        var endpoint: String { "\(method) \(Self.stripQuery(path))" }
        let response: HTTPCollectedResponse
        switch exchange {
        case .success(let collected):
            response = collected
        case .failure(let error):
            endSpan(span, method, path, trace, status: nil, errorType: error.code.rawValue)
            return .failure(
                BackendError(code: .transport, endpoint: endpoint, message: error.description, underlying: error))
        }
        endSpan(span, method, path, trace, status: response.status, errorType: nil)
        if let refusal = HTTPError.networkRefusal(status: response.status, body: response.body) {
            return .failure(
                BackendError(code: .transport, endpoint: endpoint, message: refusal.description, underlying: refusal))
        }
        guard (200..<300).contains(response.status) else {
            return .failure(
                BackendError(
                    code: .httpStatus, endpoint: endpoint, message: "HTTP \(response.status)", status: response.status,
                    serverError: ServerErrorBody(bytes: response.body)))
        }
        return .success(response.body)
    }

    /// The response read from `bytes`, or the failure naming the endpoint when they are not one.
    @inline(never)
    private static func decode<Response: WireDecodable>(
        _ bytes: [UInt8], _ method: HTTPMethod, _ path: String
    ) throws(BackendError) -> Response {
        do {
            return try Response(jsonBytes: bytes)
        } catch {
            throw BackendError(code: .invalidResponse, endpoint: "\(method) \(stripQuery(path))", message: "\(error)")
        }
    }

    /// Records a request's client span, when one was begun.
    private func endSpan(
        _ span: PendingSpan?, _ method: HTTPMethod, _ path: String, _ trace: RequestTrace, status: Int?,
        errorType: String?
    ) {
        guard let span, let tracer else { return }
        tracer.endHTTPRequest(
            span, method: method.rawValue, redactedURL: spanTarget.url + path, serverAddress: spanTarget.host,
            serverPort: spanTarget.port, resendCount: trace.resendCount, status: status, errorType: errorType)
    }

    private static func stripQuery(_ path: String) -> String {
        path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
    }

    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}

/// A session id with the capability token that opens it.
struct SessionAccess: Sendable, Hashable {
    var id: String
    var token: CapabilityToken
}
