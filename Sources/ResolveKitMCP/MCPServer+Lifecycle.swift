import ResolveKitTelemetry
import ResolveKitTools
import Synchronization

/// How a request is answered in each era: the `initialize` handshake (2025-11-25 and earlier), or the
/// version-per-request form (2026-07-28).
extension MCPServer {
    /// The era of one request, and what it asked for.
    struct Era: Sendable {
        /// The revision the request is answered in.
        var version: String
        /// Whether it is the stateless form.
        var isModern: Bool
        /// The least severe log level the request wants as `notifications/message` (modern: per request).
        var logLevel: MCPLogLevel?
    }

    private static let versionKey = "io.modelcontextprotocol/protocolVersion"

    /// The answer to one request: a result object or a JSON-RPC error. A call's spans descend from `trace`.
    func respond(method: String, params: JSONObject, id: JSONValue, _ output: MCPOutput, trace: SpanParent) async
        -> Result<JSONObject, JSONRPCError>
    {
        let meta = params["_meta"]?.objectValue ?? [:]
        if let requested = meta[Self.versionKey] {
            guard let version = requested.stringValue, Self.modernVersions.contains(version) else {
                return .failure(
                    .unsupportedVersion(
                        requested.stringValue ?? requested.serialized(),
                        supported: Self.modernVersions + Self.legacyVersions))
            }
            let level = meta["io.modelcontextprotocol/logLevel"]?.stringValue.flatMap(MCPLogLevel.init(rawValue:))
            let era = Era(version: version, isModern: true, logLevel: level)
            return await modern(method, params, id: id, era, output, trace: trace)
                .map { result in
                    var result = result
                    result["resultType"] = "complete"
                    var resultMeta = result["_meta"]?.objectValue ?? [:]
                    resultMeta["io.modelcontextprotocol/serverInfo"] = serverInfo
                    result["_meta"] = .object(resultMeta)
                    return result
                }
        }
        return await legacy(method, params, id: id, output, trace: trace)
    }

    private func modern(
        _ method: String, _ params: JSONObject, id: JSONValue, _ era: Era, _ output: MCPOutput, trace: SpanParent
    ) async -> Result<JSONObject, JSONRPCError> {
        switch method {
        case "server/discover":
            return .success(discovery)
        case "tools/list":
            return listTools(params, era).map { result in
                var result = result
                result["ttlMs"] = .number(Double(24 * 3600 * 1000))
                result["cacheScope"] = "private"
                return result
            }
        case "tools/call":
            return await callTool(params, id: id, era, output, trace: trace)
        default:
            // ping, logging/setLevel and initialize do not exist in the stateless revision.
            return .failure(.methodNotFound(method))
        }
    }

    private func legacy(
        _ method: String, _ params: JSONObject, id: JSONValue, _ output: MCPOutput, trace: SpanParent
    ) async -> Result<JSONObject, JSONRPCError> {
        switch method {
        case "initialize":
            return initialize(params, id: id)
        case "ping":
            return .success([:])
        case "server/discover":
            return .success(discovery)
        default:
            break
        }
        let (version, level) = state.withLock {
            ($0.phase == .awaitingInitialize ? nil : $0.legacyVersion, $0.logLevel)
        }
        guard let version else {
            return .failure(
                .invalidRequest(
                    "The server is not initialized: send initialize first, or give the protocol version 2026-07-28 in "
                        + "params._meta[\"\(Self.versionKey)\"]"))
        }
        let era = Era(version: version, isModern: false, logLevel: level)
        switch method {
        case "tools/list": return listTools(params, era)
        case "tools/call": return await callTool(params, id: id, era, output, trace: trace)
        case "logging/setLevel":
            guard let name = params["level"]?.stringValue, let level = MCPLogLevel(rawValue: name) else {
                return .failure(
                    .invalidParams(
                        "level must be one of " + MCPLogLevel.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            state.withLock { $0.logLevel = level }
            return .success([:])
        default:
            return .failure(.methodNotFound(method))
        }
    }

    /// The handshake: the client's revision when this server speaks it, else the newest one it does.
    private func initialize(_ params: JSONObject, id: JSONValue) -> Result<JSONObject, JSONRPCError> {
        guard let requested = params["protocolVersion"]?.stringValue else {
            return .failure(.invalidParams("initialize needs protocolVersion, a string"))
        }
        let version = Self.legacyVersions.contains(requested) ? requested : Self.legacyVersions[0]
        let accepted = state.withLock { state -> Bool in
            guard state.phase == .awaitingInitialize else { return false }
            state.phase = .initializing
            state.legacyVersion = version
            state.clientCapabilities = params["capabilities"]?.objectValue ?? [:]
            state.initializeRequest = RequestKey(id)
            return true
        }
        guard accepted else { return .failure(.invalidRequest("initialize was already answered on this connection")) }
        var result: JSONObject = [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false], "logging": [:]],
            "serverInfo": serverInfo,
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        return .success(result)
    }

    private var serverInfo: JSONValue {
        ["name": .string(configuration.name), "version": .string(configuration.version)]
    }

    private var discovery: JSONObject {
        var result: JSONObject = [
            "resultType": "complete", "supportedVersions": .array(Self.modernVersions.map(JSONValue.string)),
            "capabilities": ["tools": [:]], "_meta": ["io.modelcontextprotocol/serverInfo": serverInfo],
            "ttlMs": .number(Double(24 * 3600 * 1000)), "cacheScope": "private",
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        return result
    }
}

/// The syslog severities of MCP logging, least severe first.
enum MCPLogLevel: String, CaseIterable, Sendable, Comparable {
    case debug, info, notice, warning, error, critical, alert, emergency

    static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
