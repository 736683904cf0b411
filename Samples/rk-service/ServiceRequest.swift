import ResolveKitTools

/// One request line: a message for the agent, or a command for the service.
struct ServiceRequest: Equatable, Sendable {
    /// What is asked.
    enum Kind: Equatable, Sendable {
        /// Send this text to the agent and answer when its turn ends.
        case message(String)
        /// Answer the connection state, session id and counts.
        case status
        /// List, decide or subscribe to the calls waiting for approval (see ``ApprovalCommand``).
        case approval(ApprovalCommand)
    }

    /// The caller's id, echoed in the answer (a string or number; `nil` when absent).
    var id: JSONValue?
    var kind: Kind
    /// Whose session answers (`user`): each user has a session of their own; `nil` is the one shared session.
    var user: String? = nil
    /// The operator's terminal as the client reports it (`terminal`), for the audit trail of approvals.
    var terminal: String? = nil
    /// The caller's W3C trace context (`traceparent`, `tracestate`): the request's span continues its trace.
    var traceparent: String? = nil
    var tracestate: String? = nil

    /// A line that is not a usable request, with the id when one could be read.
    struct Malformed: Error, Equatable {
        var id: JSONValue?
        var reason: String
    }

    /// The longest request line accepted, in bytes (longer lines are answered with an error and skipped).
    static let maxLineBytes = 64 * 1024
    /// The longest user name, in bytes.
    static let maxUserBytes = 256

    /// Parses one line (without its newline).
    static func parse(_ line: some Collection<UInt8>) throws(Malformed) -> ServiceRequest {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: line)
        } catch {
            throw Malformed(reason: "the line is not valid JSON: \(error)")
        }
        guard let object = json.objectValue else { throw Malformed(reason: "a request must be a JSON object") }
        let id = object["id"]
        if let id, id.stringValue == nil, id.doubleValue == nil {
            throw Malformed(reason: "id must be a string or a number")
        }
        var user: String? = nil
        if let value = object["user"] {
            guard let name = value.stringValue, !name.isEmpty, name.utf8.count <= maxUserBytes else {
                throw Malformed(id: id, reason: "user must be a string of 1 to \(maxUserBytes) bytes")
            }
            user = name
        }
        switch (object["message"], object["command"]) {
        case (let message?, nil):
            guard let text = message.stringValue, !text.isEmpty else {
                throw Malformed(id: id, reason: "message must be a non-empty string")
            }
            return ServiceRequest(
                id: id, kind: .message(text), user: user, traceparent: object["traceparent"]?.stringValue,
                tracestate: object["tracestate"]?.stringValue)
        case (nil, let command?):
            if command.stringValue == "status" { return ServiceRequest(id: id, kind: .status, user: user) }
            guard let name = command.stringValue, ApprovalCommand.names.contains(name) else {
                throw Malformed(
                    id: id,
                    reason: "unknown command \(command.serialized()); the commands are "
                        + (["status"] + ApprovalCommand.names).map { "\"\($0)\"" }.joined(separator: ", "))
            }
            do throws(ApprovalCommand.ParseFailure) {
                return ServiceRequest(
                    id: id, kind: .approval(try ApprovalCommand.parse(name, object)), user: user,
                    terminal: try ApprovalCommand.terminal(object))
            } catch {
                throw Malformed(id: id, reason: error.reason)
            }
        case (.some, .some):
            throw Malformed(id: id, reason: "a request has either \"message\" or \"command\", not both")
        case (nil, nil):
            throw Malformed(
                id: id, reason: "a request needs \"message\" (text for the agent) or \"command\": \"status\"")
        }
    }
}
