import ResolveKitTools

/// What JSON-RPC 2.0 and MCP require the server to answer to one line, worked out here from the specifications,
/// not from the server's code.
enum Expected: Equatable {
    /// No answer: a blank line, a notification, or a response to something the server asked.
    case nothing
    /// An error for an invalid message; `id` is `nil` when it could not be read (the response's id is null).
    case error(id: JSONValue?, code: Int)
    /// A request: exactly one response with its id, a result or an error.
    case request(id: JSONValue, method: String, params: JSONObject)
    /// `notifications/cancelled` for a request id: that request may go unanswered.
    case cancel(JSONValue)
}

enum Oracle {
    /// The lines as a newline-delimited stream holds them; a last line without a newline counts.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// MCP ids are strings or integers (never null, unlike plain JSON-RPC).
    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string: true
        case .number(let value): value.rounded() == value && abs(value) <= JSONValue.maxExactInteger
        default: false
        }
    }

    static func expected(_ line: ArraySlice<UInt8>, maxBytes: Int) -> Expected {
        // The server's own limit: a longer message is refused as invalid, whatever it holds.
        if line.count > maxBytes { return .error(id: nil, code: -32600) }
        // Blank lines (spaces, tabs, a CR before the newline) separate nothing and are skipped.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .nothing }
        guard let json = try? JSONValue(parsing: line) else { return .error(id: nil, code: -32700) }
        // A batch (an array) is not an MCP message; neither is any other non-object.
        guard let object = json.objectValue else { return .error(id: nil, code: -32600) }
        let method = object["method"]
        // A message with a result or an error and no method is a response: answering it could be taken by the
        // client for the answer to its own request with that id.
        if method == nil, object["result"] != nil || object["error"] != nil { return .nothing }
        let id = object["id"]
        if let id, !isValidID(id) { return .error(id: nil, code: -32600) }
        guard object["jsonrpc"] == "2.0", let name = method?.stringValue else { return .error(id: id, code: -32600) }
        switch object["params"] {
        case nil, .object?: break
        // A structured value, so a valid message, but not the object every MCP method takes.
        case .array?: return id.map { .error(id: $0, code: -32602) } ?? .nothing
        // JSON-RPC: params, when present, MUST be an array or an object; anything else is an invalid request.
        default: return .error(id: id, code: -32600)
        }
        guard let id else {
            if name == "notifications/cancelled", let target = object["params"]?["requestId"], isValidID(target) {
                return .cancel(target)
            }
            return .nothing
        }
        return .request(id: id, method: name, params: object["params"]?.objectValue ?? [:])
    }
}
