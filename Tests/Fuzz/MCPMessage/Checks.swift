import ResolveKitMCP
import ResolveKitTools

/// The server's output against what each input line required.
struct Checks {
    static let errorCodes: Set<Int> = [-32700, -32600, -32601, -32602, -32603, -32022]
    static let methods: Set<String> = [
        "initialize", "ping", "server/discover", "tools/list", "tools/call", "logging/setLevel",
    ]

    let messages: [JSONValue]
    let expected: [Expected]

    init(output: [UInt8], expected: [Expected]) {
        check(output.isEmpty || output.last == UInt8(ascii: "\n"), "the output does not end with a newline")
        let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        messages = lines.map { line in
            guard let message = try? JSONValue(parsing: line) else {
                let text = String(decoding: line, as: UTF8.self)
                fatalError("MCPMessage fuzz property violated: a line written is not JSON: \(text)")
            }
            return message
        }
        self.expected = expected
    }

    func run() {
        for message in messages { checkShape(message) }
        let responses = messages.enumerated().filter { $0.element["method"] == nil }
        // Errors without an id: as many, with the same codes, as the lines whose id could not be read.
        let nullCodes = responses.filter { $0.element["id"] == .null }.map { code(of: $0.element) }.sorted()
        let wanted = expected.compactMap { if case .error(nil, let code) = $0 { code } else { nil } }.sorted()
        check(nullCodes == wanted, "errors without an id \(nullCodes), not \(wanted)")
        checkAnswersByID(responses)
        checkProgress(responses)
    }

    /// One valid JSON-RPC 2.0 message: a response, or a notification the server sends.
    private func checkShape(_ message: JSONValue) {
        check(message.objectValue != nil, "a message is not an object: \(message.serialized())")
        check(message["jsonrpc"] == "2.0", "a message without \"jsonrpc\": \"2.0\": \(message.serialized())")
        if let method = message["method"] {
            check(
                method == "notifications/progress" || method == "notifications/message",
                "the server sent \(method.serialized())")
            check(message["id"] == nil, "a notification with an id: \(message.serialized())")
            check(message["params"]?.objectValue != nil, "a notification without params: \(message.serialized())")
            return
        }
        let id = message["id"]
        check(id == .null || id.map(Oracle.isValidID) == true, "a response with id \(String(describing: id))")
        check(
            (message["result"] == nil) != (message["error"] == nil),
            "not one of result or error: \(message.serialized())")
        if let result = message["result"] {
            check(result.objectValue != nil, "a result that is not an object: \(message.serialized())")
            check(id != .null, "a result with id null")
        } else {
            check(
                message["error"]?["message"]?.stringValue != nil, "an error without a message: \(message.serialized())")
            check(
                Self.errorCodes.contains(code(of: message)),
                "error code outside the specification: \(message.serialized())")
        }
    }

    private func code(of message: JSONValue) -> Int {
        guard let code = message["error"]?["code"]?.intValue else {
            fatalError("MCPMessage fuzz property violated: an error without an integer code: \(message.serialized())")
        }
        return code
    }

    /// Per id: the invalid lines' codes, and one response per request (at most one when it was cancelled).
    private func checkAnswersByID(_ responses: [(offset: Int, element: JSONValue)]) {
        var codes: [JSONValue: [Int]] = [:]
        var requests: [JSONValue: [(method: String, params: JSONObject)]] = [:]
        var cancelled: Set<JSONValue> = []
        for line in expected {
            switch line {
            case .error(let id?, let code): codes[id, default: []].append(code)
            case .request(let id, let method, let params): requests[id, default: []].append((method, params))
            case .cancel(let id): cancelled.insert(id)
            case .error(nil, _), .nothing: break
            }
        }
        var answers: [JSONValue: [JSONValue]] = [:]
        for (_, response) in responses {
            guard let id = response["id"], id != .null else { continue }
            answers[id, default: []].append(response)
        }
        for (id, got) in answers {
            check(codes[id] != nil || requests[id] != nil, "a response to id \(id.serialized()), which nobody sent")
            var remaining = got.compactMap { $0["error"]?["code"]?.intValue }
            for code in codes[id] ?? [] {
                guard let index = remaining.firstIndex(of: code) else {
                    fatalError("MCPMessage fuzz property violated: id \(id.serialized()) did not get error \(code)")
                }
                remaining.remove(at: index)
            }
            let asked = requests[id] ?? []
            let answered = got.count - (codes[id]?.count ?? 0)
            if cancelled.contains(id) {
                check(answered <= asked.count, "id \(id.serialized()): \(answered) answers to \(asked.count) requests")
            } else {
                check(answered == asked.count, "id \(id.serialized()): \(answered) answers to \(asked.count) requests")
            }
            if codes[id] == nil, asked.count == 1, got.count == 1 { checkAnswer(got[0], to: asked[0].method) }
        }
        for (id, asked) in requests where answers[id] == nil {
            check(cancelled.contains(id), "id \(id.serialized()): no answer to \(asked.count) requests")
        }
    }

    /// An answer fits its method.
    private func checkAnswer(_ response: JSONValue, to method: String) {
        guard let result = response["result"] else {
            return
        }
        check(Self.methods.contains(method), "\(method), which the server does not have, got a result")
        switch method {
        case "tools/call":
            check(result["isError"]?.boolValue != nil, "a tools/call result without isError")
            let content = result["content"]?.arrayValue ?? []
            check(
                !content.isEmpty && content.allSatisfy { $0["type"] == "text" && $0["text"]?.stringValue != nil },
                "a tools/call result without text content: \(result.serialized())")
        case "tools/list":
            let tools = result["tools"]?.arrayValue ?? []
            check(
                tools.allSatisfy { $0["name"]?.stringValue != nil && $0["inputSchema"]?.objectValue != nil },
                "a tools/list result with a tool lacking name or inputSchema")
        case "initialize":
            check(
                MCPServer.legacyVersions.contains(result["protocolVersion"]?.stringValue ?? ""),
                "initialize agreed on \(String(describing: result["protocolVersion"]))")
        default: break
        }
    }

    /// Progress for a request comes before its response and grows.
    private func checkProgress(_ responses: [(offset: Int, element: JSONValue)]) {
        var tokens: [JSONValue: JSONValue] = [:]  // progress token → request id, for tokens and ids used once
        var seenTokens: [JSONValue: Int] = [:]
        var seenIDs: [JSONValue: Int] = [:]
        for line in expected {
            // An invalid line's error carries its id as well, so only ids used by one line are followed.
            if case .error(let id?, _) = line { seenIDs[id, default: 0] += 1 }
            guard case .request(let id, _, let params) = line else { continue }
            seenIDs[id, default: 0] += 1
            if let token = params["_meta"]?["progressToken"] {
                seenTokens[token, default: 0] += 1
                tokens[token] = id
            }
        }
        var last: [JSONValue: Double] = [:]
        for (index, message) in messages.enumerated() where message["method"] == "notifications/progress" {
            guard let token = message["params"]?["progressToken"],
                let progress = message["params"]?["progress"]?.doubleValue
            else {
                fatalError(
                    "MCPMessage fuzz property violated: progress without token or number: \(message.serialized())")
            }
            check(seenTokens[token] != nil, "progress for token \(token.serialized()), which no request carried")
            guard seenTokens[token] == 1, let id = tokens[token], seenIDs[id] == 1 else { continue }
            check(last[token].map { progress > $0 } ?? true, "progress for \(token.serialized()) did not grow")
            last[token] = progress
            let answeredAt = responses.first { $0.element["id"] == id }?.offset
            check(answeredAt.map { index < $0 } ?? true, "progress for \(id.serialized()) after its response")
        }
    }
}
