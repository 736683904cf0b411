import ResolveKit

/// Answers request lines: status at once, messages through the runtime's `ask`, which runs one turn at a time in
/// the order they arrived. After ``stopAccepting()`` new messages are answered with an error.
actor RequestHandler {
    /// Requests answered so far, for `status`.
    struct Counts: Sendable {
        var answered = 0
        var failed = 0
        var inFlight = 0
    }

    private let runtime: ResolveKitRuntime
    private let turnTimeout: Duration
    private let log: ResolveKitLogger
    private var counts = Counts()
    private var accepting = true

    init(runtime: ResolveKitRuntime, turnTimeout: Duration, log: ResolveKitLogger) {
        self.runtime = runtime
        self.turnTimeout = turnTimeout
        self.log = log
    }

    /// Answers one line (`nil` when it was too long).
    func handle(_ line: [UInt8]?) async -> ServiceResponse {
        counts.inFlight += 1
        let response = await answer(line)
        counts.inFlight -= 1
        if response.isError { counts.failed += 1 } else { counts.answered += 1 }
        return response
    }

    /// Messages read from now on, and those still waiting for their turn, are answered with an error.
    func stopAccepting() {
        accepting = false
    }

    private func answer(_ line: [UInt8]?) async -> ServiceResponse {
        guard let line else {
            log.warning("request refused", metadata: ["reason": "line too long"])
            return .error(id: nil, "the line is longer than \(ServiceRequest.maxLineBytes) bytes")
        }
        let request: ServiceRequest
        do {
            request = try ServiceRequest.parse(line)
        } catch {
            log.warning("request refused", metadata: ["reason": error.reason])
            return .error(id: error.id, error.reason)
        }
        switch request.kind {
        case .status:
            return status(id: request.id)
        case .message(let text):
            return await converse(text, id: request.id)
        }
    }

    private func converse(_ text: String, id: JSONValue?) async -> ServiceResponse {
        let idText = id.map { $0.stringValue ?? $0.serialized() } ?? "-"
        guard accepting, !Task.isCancelled else { return .error(id: id, "the service is shutting down") }
        log.info("request started", metadata: ["id": idText, "characters": "\(text.count)"])
        let started = ContinuousClock.now
        let response: ServiceResponse
        do {
            response = .turn(try await runtime.ask(text, timeout: turnTimeout), id: id)
        } catch {
            response = .failure(error, id: id)
        }
        let elapsed = ContinuousClock.now - started
        log.info(
            "request answered",
            metadata: [
                "id": idText, "status": response.fields["status"]?.stringValue ?? "?",
                "tool_calls": "\(response.fields["tool_calls"]?.arrayValue?.count ?? 0)",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ])
        return response
    }

    private func status(id: JSONValue?) -> ServiceResponse {
        let countsObject: JSONObject = [
            "messages": .number(Double(runtime.messages.count)),
            "tool_calls": .number(Double(runtime.toolCallBatches.reduce(0) { $0 + $1.items.count })),
            "requests_answered": .number(Double(counts.answered)),
            "requests_failed": .number(Double(counts.failed)),
            "requests_in_flight": .number(Double(counts.inFlight - 1)),
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
