import Foundation
import ResolveKitCore
import ResolveKitTesting
import Synchronization

/// Calls a reference backend's handler directly, the way an SDK would over HTTP.
struct BackendHarness {
    static let apiKey = "rk_test"
    static let transcriptFunctions = #"""
        {"functions": [{"name": "get_local_time", "description": "Returns the current local time on the user's device.", "parameters_schema": {"type": "object", "properties": {}, "required": []}, "timeout_seconds": 30, "requires_approval": false}, {"name": "set_lights", "description": "Turn the lights in a room on or off.", "parameters_schema": {"type": "object", "properties": {"room": {"type": "string", "description": "Room name"}, "on": {"type": "boolean", "description": "true = on, false = off"}}, "required": ["room", "on"]}, "timeout_seconds": 60, "requires_approval": true}]}
        """#

    struct Reply {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String
        var stream: (@Sendable (any LoopbackBodyWriter) async throws -> Void)?

        var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    struct Session {
        var id: String
        var token: String
    }

    let backend: ReferenceBackend
    let clock: ManualClock
    let wallClock: WallClock

    init(
        script: AgentScript = .default, model: (any AgentModel)? = nil,
        eventIDStyle: ReferenceBackend.EventIDStyle = .redis, faults: FaultPlan = FaultPlan(),
        toolResultSemantics: ReferenceBackend.ToolResultSemantics = .inMemory, maxToolRounds: Int = 10,
        capabilityTokenTTL: Duration? = nil, streamCap: Duration = .seconds(300)
    ) {
        let clock = ManualClock()
        let wallClock = WallClock()
        self.clock = clock
        self.wallClock = wallClock
        backend = ReferenceBackend(
            configuration: .init(
                apiKeys: [Self.apiKey], capabilityTokenTTL: capabilityTokenTTL, streamConnectionCap: streamCap,
                eventIDStyle: eventIDStyle,
                toolResultSemantics: toolResultSemantics, maxToolRounds: maxToolRounds,
                script: script, model: model, faults: faults, clock: clock, now: { wallClock.now }))
    }

    @discardableResult
    func send(
        _ method: String, _ target: String, body: String? = nil, bearer: String? = Self.apiKey,
        capability: String? = nil,
        headers extra: [(name: String, value: String)] = []
    ) async -> Reply {
        var headers: [(name: String, value: String)] = []
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        if let capability { headers.append(("X-Resolvekit-Chat-Capability", capability)) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += extra
        let response = await backend.handle(
            LoopbackRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8)))
        switch response.body {
        case .bytes(let bytes):
            return Reply(
                status: response.status, headers: response.headers, body: String(decoding: bytes, as: UTF8.self))
        case .stream(let produce):
            return Reply(status: response.status, headers: response.headers, body: "", stream: produce)
        }
    }

    @discardableResult
    func registerTranscriptFunctions() async -> Reply {
        await send("PUT", "/v1/functions/bulk", body: Self.transcriptFunctions)
    }

    func createSession(
        device: String = "device-1", functions: [String] = ["get_local_time", "set_lights"], extra: String = ""
    ) async -> Session {
        let names = functions.map { "\"\($0)\"" }.joined(separator: ", ")
        let reply = await send(
            "POST", "/v1/sessions",
            body:
                #"{"device_id": "\#(device)", "client": {"platform": "linux"}, "available_function_names": [\#(names)]\#(extra)}"#
        )
        return Session(
            id: reply.json["id"]?.stringValue ?? "", token: reply.json["chat_capability_token"]?.stringValue ?? "")
    }

    /// Posts a user message; returns the turn id.
    @discardableResult
    func say(_ text: String, in session: Session, requestID: String = "req-1") async -> String {
        let reply = await post(session, "messages", #"{"text": "\#(text)", "request_id": "\#(requestID)"}"#)
        return reply.json["turn_id"]?.stringValue ?? "status \(reply.status): \(reply.body)"
    }

    /// Posts a successful tool result whose idempotency key is the call id.
    @discardableResult
    func answer(_ callID: String, turn: String, in session: Session, result: String, key: String? = nil) async -> Reply
    {
        await post(
            session, "tool-results",
            #"{"turn_id": "\#(turn)", "idempotency_key": "\#(key ?? callID)", "call_id": "\#(callID)", "status": "success", "result": \#(result)}"#
        )
    }

    func post(_ session: Session, _ endpoint: String, _ body: String) async -> Reply {
        await send("POST", "/v1/sessions/\(session.id)/\(endpoint)", body: body, capability: session.token)
    }

    /// Opens the event stream and runs its body into a recording writer until the body ends.
    func openStream(_ session: Session, query: String = "") async -> (RecordingBodyWriter, Task<Void, Never>) {
        let reply = await send("GET", "/v1/sessions/\(session.id)/events\(query)", capability: session.token)
        let writer = RecordingBodyWriter()
        let produce = reply.stream
        let task = Task {
            try? await produce?(writer)
            writer.finish()
        }
        return (writer, task)
    }
}

/// A settable wall clock for timestamps and expiry.
final class WallClock: Sendable {
    private let storage = Mutex(Date(timeIntervalSince1970: 1_795_312_328.5))
    var now: Date { storage.withLock { $0 } }
    func advance(seconds: Double) { storage.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { storage.withLock { $0 = date } }
}

extension AsyncStream<[UInt8]>.Iterator {
    /// The next chunk as text; `nil` at the end.
    mutating func nextText() async -> String? {
        await next().map { String(decoding: $0, as: UTF8.self) }
    }
}
