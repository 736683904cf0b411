import ResolveKit
import ResolveKitTelemetry
import Synchronization

/// Answers request lines: status at once, messages through the host, in the session of the line's `user` (or the
/// shared one). Each user's messages run one after another in the order their lines arrived; different users' run
/// at once. After ``stopAccepting()`` new messages are answered with an error.
final class RequestHandler: Sendable {
    /// Requests answered so far, for `status`.
    struct Counts: Sendable {
        var answered = 0
        var failed = 0
        var inFlight = 0
    }

    private struct State {
        var counts = Counts()
        var accepting = true
        /// Each user's latest request: the next one of that user starts after it.
        var tails: [String: Task<ServiceResponse, Never>] = [:]
    }

    /// The host key of the session shared by lines without a `user` (a user name is never empty): with a state
    /// folder, one for the service; with Redis (`--state`), one per replica, `replica/<name>`, since a key shared
    /// by every replica would be served by one of them only.
    static func sharedKey(_ settings: ServiceSettings) -> String {
        settings.replicaName.map { "replica/" + $0 } ?? ""
    }

    let host: ResolveKitHost
    /// The key of lines without a `user`.
    let sharedKey: String
    private let turnTimeout: Duration
    let log: ResolveKitLogger
    /// Starts each message's server span; when spans are not exported it still gives the message a trace
    /// context, which its log lines, its turn and the backend's requests carry.
    private let tracer: Tracer
    private let state = Mutex(State())

    init(
        host: ResolveKitHost, sharedKey: String, turnTimeout: Duration, log: ResolveKitLogger,
        tracer: Tracer = .disabled
    ) {
        self.host = host
        self.sharedKey = sharedKey
        self.turnTimeout = turnTimeout
        self.log = log
        self.tracer = tracer
    }

    /// Takes one line and returns the task answering it. Call it in the order the lines arrived: that order is
    /// each user's order. Approval commands are answered at once, outside any user's order.
    func submit(_ incoming: IncomingLine) -> Task<ServiceResponse, Never> {
        let request: ServiceRequest
        do throws(ServiceRequest.Malformed) {
            guard let line = incoming.bytes else {
                throw ServiceRequest.Malformed(reason: "the line is longer than \(ServiceRequest.maxLineBytes) bytes")
            }
            request = try ServiceRequest.parse(line)
        } catch {
            log.warning("request refused", metadata: ["reason": error.reason])
            let response = ServiceResponse.error(id: error.id, error.reason)
            count(response)
            return Task { response }
        }
        if case .approval(let command) = request.kind {
            return Task { [self] in
                let response = await answer(command, id: request.id, from: incoming, terminal: request.terminal)
                count(response)
                return response
            }
        }
        let key = request.user ?? sharedKey
        return state.withLock { state in
            state.counts.inFlight += 1
            let previous = state.tails[key]
            let task = Task { [self] in
                _ = await previous?.value
                let response = await answer(request)
                count(response, finished: true)
                return response
            }
            state.tails[key] = task
            return task
        }
    }

    /// Messages read from now on, and those still waiting for their turn, are answered with an error.
    func stopAccepting() {
        state.withLock { $0.accepting = false }
    }

    func count(_ response: ServiceResponse, finished: Bool = false) {
        state.withLock { state in
            if finished { state.counts.inFlight -= 1 }
            if response.isError { state.counts.failed += 1 } else { state.counts.answered += 1 }
        }
    }

    private func answer(_ request: ServiceRequest) async -> ServiceResponse {
        var response: ServiceResponse
        switch request.kind {
        case .status: response = await status(id: request.id, user: request.user)
        case .message(let text): response = await converse(text, request)
        case .approval(let command):
            response = await answer(command, id: request.id, from: nil, terminal: request.terminal)
        }
        if let user = request.user { response.fields["user"] = .string(user) }
        return response
    }

    private func converse(_ text: String, _ request: ServiceRequest) async -> ServiceResponse {
        let (id, user) = (request.id, request.user)
        let idText = id.map { $0.stringValue ?? $0.serialized() } ?? "-"
        guard state.withLock({ $0.accepting }), !Task.isCancelled else {
            return .error(id: id, "the service is shutting down")
        }
        let span = tracer.startSpan(
            "rk-service message", kind: .server,
            parent: .incoming(traceparent: request.traceparent, tracestate: request.tracestate))
        let log = self.log.with(metadata: span.context.logMetadata)
        log.info("request started", metadata: ["id": idText, "characters": "\(text.count)", "user": user ?? "-"])
        let started = ContinuousClock.now
        let response: ServiceResponse
        do {
            let result = try await host.ask(
                text, as: user ?? sharedKey, timeout: turnTimeout, parent: span.context)
            for call in result.toolCalls { logCall(call, user: user, log: log) }
            response = .turn(result, id: id)
        } catch {
            span.recordError(type: error.code.rawValue, description: error.message)
            for call in error.turnSoFar?.toolCalls ?? [] { logCall(call, user: user, log: log) }
            response = .failure(error, id: id)
        }
        span.end()
        let elapsed = ContinuousClock.now - started
        log.info(
            "request answered",
            metadata: [
                "id": idText, "status": response.fields["status"]?.stringValue ?? "?", "user": user ?? "-",
                "tool_calls": "\(response.fields["tool_calls"]?.arrayValue?.count ?? 0)",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
        return response
    }

    private func logCall(_ item: ToolCallChecklistItem, user: String?, log: ResolveKitLogger) {
        let call = ServiceResponse.ToolCall(item)
        var metadata = ["function": call.function, "status": call.status, "call_id": item.id.rawValue, "user": user ?? "-"]
        if let error = call.error { metadata["error"] = error }
        // The call's own span (under the request's): a trace store opens the call from this line.
        if let span = item.spanContext { metadata.merge(span.logMetadata) { $1 } }
        log.log(call.error == nil ? .info : .warning, "tool call \(call.status)", metadata: metadata)
    }

    private func status(id: JSONValue?, user: String?) async -> ServiceResponse {
        let (counts, accepting) = state.withLock { ($0.counts, $0.accepting) }
        let runtime: ResolveKitRuntime
        do {
            runtime = try await host.session(for: user ?? sharedKey)
        } catch {
            return .failure(error, id: id)
        }
        let countsObject: JSONObject = [
            "messages": .number(Double(runtime.messages.count)),
            "tool_calls": .number(Double(runtime.toolCallBatches.reduce(0) { $0 + $1.items.count })),
            "requests_answered": .number(Double(counts.answered)),
            "requests_failed": .number(Double(counts.failed)),
            "requests_in_flight": .number(Double(counts.inFlight - 1)),
            "open_sessions": .number(Double(host.openSessionKeys.count)),
        ]
        return ServiceResponse(
            id: id,
            fields: [
                "status": "ok", "connection": .string(runtime.connectionState.description),
                "session_id": runtime.sessionID.map(JSONValue.string) ?? .null,
                "turn_in_progress": .bool(runtime.isTurnInProgress), "accepting": .bool(accepting),
                "counts": .object(countsObject),
            ])
    }
}
