import ResolveKitTools

/// One line from the client, classified as JSON-RPC 2.0 says: a request (has an id), a notification (no id), a
/// response to something the server asked (ignored here), a notification the server cannot apply (ignored: a
/// notification is never answered), or a line that is not a valid message.
enum JSONRPCMessage: Equatable, Sendable {
    case request(id: JSONValue, method: String, params: JSONObject)
    case notification(method: String, params: JSONObject)
    case response(id: JSONValue?)
    case unusableNotification(method: String)
    case invalid(id: JSONValue?, error: JSONRPCError)

    /// Parses one line (without its newline).
    static func parse(_ line: some Collection<UInt8>) -> JSONRPCMessage {
        guard let json = try? JSONValue(parsing: line) else {
            return .invalid(id: nil, error: .parseError("The line is not valid JSON"))
        }
        guard let object = json.objectValue else {
            if json.arrayValue != nil {
                return .invalid(id: nil, error: .invalidRequest("JSON-RPC batches are not supported by MCP"))
            }
            return .invalid(id: nil, error: .invalidRequest("A message must be a JSON object"))
        }
        let id = object["id"]
        // A response, even a malformed one (no id, id null, no "jsonrpc"), is never answered: an error with its id
        // could be taken for the answer to the client's own request with that id, and two peers that answer each
        // other's bad responses never stop.
        if object["method"] == nil, object["result"] != nil || object["error"] != nil { return .response(id: id) }
        if let id, id.stringValue == nil, id.intValue == nil {
            return .invalid(id: nil, error: .invalidRequest("The id must be a string or an integer"))
        }
        guard object["jsonrpc"]?.stringValue == "2.0" else {
            return .invalid(id: id, error: .invalidRequest(#"The message must have "jsonrpc": "2.0""#))
        }
        guard let method = object["method"] else {
            return .invalid(id: id, error: .invalidRequest(#"A request needs a "method""#))
        }
        guard let name = method.stringValue else {
            return .invalid(id: id, error: .invalidRequest("The method must be a string"))
        }
        var params: JSONObject = [:]
        switch object["params"] {
        case nil: break
        case .object(let members)?: params = members
        case .array?:
            // A valid JSON-RPC message, but every MCP method takes an object; a notification is still not answered.
            guard let id else { return .unusableNotification(method: name) }
            return .invalid(id: id, error: .invalidParams("params must be an object"))
        default:
            // JSON-RPC: params, when present, must be an array or an object, or the request is invalid.
            return .invalid(id: id, error: .invalidRequest("params must be an object"))
        }
        if let id { return .request(id: id, method: name, params: params) }
        return .notification(method: name, params: params)
    }
}

/// A JSON-RPC error object.
struct JSONRPCError: Error, Equatable, Sendable {
    var code: Int
    var message: String
    var data: JSONValue?

    static func parseError(_ message: String) -> Self { Self(code: -32700, message: message) }
    static func invalidRequest(_ message: String) -> Self { Self(code: -32600, message: message) }
    static func methodNotFound(_ method: String) -> Self { Self(code: -32601, message: "Method not found: \(method)") }
    static func invalidParams(_ message: String) -> Self { Self(code: -32602, message: message) }
    static func internalError(_ message: String) -> Self { Self(code: -32603, message: message) }

    /// The 2026-07-28 error for a request whose protocol version this server does not speak.
    static func unsupportedVersion(_ requested: String, supported: [String]) -> Self {
        Self(
            code: -32022, message: "Unsupported protocol version",
            data: ["supported": .array(supported.map(JSONValue.string)), "requested": .string(requested)])
    }

    var json: JSONValue {
        var object: JSONObject = ["code": .number(Double(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
