import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

/// A session machine driven by hand: events go in at chosen times, and the actions that come out are read as a
/// script. No server, no clock, no task: each scenario runs in microseconds.
struct MachineScript {
    var machine: SessionMachine
    /// Every action so far, in order.
    private(set) var log: [SessionAction] = []
    /// The runtime clock, in seconds since the start.
    var now: Duration = .zero
    var date = Date(timeIntervalSince1970: 1_800_000_000)
    private var nextWaiter: UInt64 = 0
    private var eventNumber = 0

    /// The functions registered: `get_time` needs no approval, `set_lights` does.
    static let functions = ["get_time": false, "set_lights": true]

    init(settings: SessionSettings? = nil) {
        var settings = settings ?? SessionSettings(functions: Self.functions)
        settings.batchWindow = .milliseconds(250)
        machine = SessionMachine(settings: settings, seed: 42)
    }

    /// Whether writes complete as soon as they are issued, as a local store's do; a test of a shared store holds
    /// them and completes them with ``complete(_:)``.
    var writesCompleteAtOnce = true
    /// The actions of the event fed last, without those of its writes' completions.
    private(set) var eventActions: [SessionAction] = []

    /// Feeds one event; returns its actions and, with ``writesCompleteAtOnce``, those of its writes' completions.
    @discardableResult
    mutating func feed(_ event: SessionEvent) -> [SessionAction] {
        var actions = machine.handle(event, at: Moment(elapsed: now, date: date))
        eventActions = actions
        log += actions
        guard writesCompleteAtOnce else { return actions }
        var index = 0
        while index < actions.count {
            if case .write(_, let sequence) = actions[index] {
                let more = machine.handle(.written(sequence, .success(())), at: Moment(elapsed: now, date: date))
                log += more
                actions += more
            }
            index += 1
        }
        return actions
    }

    /// Completes the held write `sequence` (and those before it) with `result`.
    @discardableResult
    mutating func complete(_ sequence: Int, _ result: Result<Void, ResolveKitError> = .success(())) -> [SessionAction] {
        let actions = machine.handle(.written(sequence, result), at: Moment(elapsed: now, date: date))
        log += actions
        return actions
    }

    static func writeSequences(_ actions: [SessionAction]) -> [Int] {
        actions.compactMap { if case .write(_, let sequence) = $0 { sequence } else { nil } }
    }

    /// Moves time on by `duration` and fires every timer due by then, oldest first.
    @discardableResult
    mutating func advance(_ duration: Duration) -> [SessionAction] {
        let target = now + duration
        var actions: [SessionAction] = []
        while let (timer, deadline) = machine.timers.filter({ $0.value <= target }).min(by: { $0.value < $1.value }) {
            now = max(now, deadline)
            actions += feed(.timerFired(timer, at: deadline))
        }
        now = target
        return actions
    }

    mutating func waiter() -> WaiterID {
        nextWaiter += 1
        return WaiterID(rawValue: nextWaiter)
    }

    // MARK: Reading the actions

    /// The requests in `actions`.
    static func requests(_ actions: [SessionAction]) -> [(call: BackendCall, tag: RequestTag)] {
        actions.compactMap { if case .send(let call, _, let tag) = $0 { (call, tag) } else { nil } }
    }

    /// The one request of `actions` matching `matches`, failing the test when there is none.
    static func request(
        _ actions: [SessionAction], sourceLocation: SourceLocation = #_sourceLocation,
        where matches: (BackendCall) -> Bool
    ) -> RequestTag? {
        let tag = requests(actions).first { matches($0.call) }?.tag
        if tag == nil { Issue.record("no such request in \(actions)", sourceLocation: sourceLocation) }
        return tag
    }

    static func publications(_ actions: [SessionAction]) -> [Publication] {
        actions.compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
    }

    static func states(_ actions: [SessionAction]) -> [ResolveKitConnectionState] {
        publications(actions).compactMap { if case .connection(let state) = $0 { state } else { nil } }
    }

    static func notices(_ actions: [SessionAction]) -> [String] {
        publications(actions).compactMap { if case .notice(let text) = $0 { text } else { nil } }
    }

    static func replies(_ actions: [SessionAction]) -> [WaiterID: Reply] {
        var replies: [WaiterID: Reply] = [:]
        for case .reply(let waiter, let reply) in actions { replies[waiter] = reply }
        return replies
    }

    static func batches(_ actions: [SessionAction]) -> [ToolCallBatch] {
        actions.compactMap { if case .runBatch(let batch, _, _, _) = $0 { batch } else { nil } }
    }

    static func streams(_ actions: [SessionAction]) -> [(generation: Int, cursor: String?)] {
        actions.compactMap {
            if case .openStream(let generation, _, let cursor) = $0 { (generation, cursor) } else { nil }
        }
    }

    static func persistedSessions(_ actions: [SessionAction]) -> [SessionRecord] {
        actions.compactMap { if case .write(.session(let record?), _) = $0 { record } else { nil } }
    }

    static func journalWrites(_ actions: [SessionAction]) -> [CallJournal.Entry] {
        actions.flatMap { action -> [CallJournal.Entry] in
            switch action {
            case .write(.appendJournal(let entries, _), _), .write(.replaceJournal(let entries), _): entries
            default: []
            }
        }
    }

    /// The statuses journal writes gave `callID`, in order.
    static func journaled(_ actions: [SessionAction], _ callID: ToolCallID) -> [CallJournal.Status] {
        journalWrites(actions).filter { $0.key.callID == callID }.map(\.status)
    }

    static func postedResults(_ actions: [SessionAction]) -> [ToolResultSubmission] {
        requests(actions).compactMap { if case .toolResult(let submission) = $0.call { submission } else { nil } }
    }

    // MARK: Answers and events

    static func sessionJSON(
        _ id: String, reused: Bool = false, expiresIn: TimeInterval = 3600, from date: Date,
        functions: [String] = Array(MachineScript.functions.keys)
    ) -> SessionResponse {
        let claims = #"{"sid":"\#(id)","exp":\#(Int(date.timeIntervalSince1970 + expiresIn))}"#
        let token =
            "eyJhbGciOiJIUzI1NiJ9."
            + Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "") + ".sig"
        let json: JSONValue = [
            "id": .string(id), "app_id": "app", "device_id": "device",
            "available_function_names": .array(functions.sorted().map { .string($0) }), "locale": "en",
            "chat_title": "Support Chat", "message_placeholder": "Message", "initial_message": "",
            "status": "active", "last_activity_at": .string(ISO8601Timestamp.format(date)),
            "events_url": .string("/v1/sessions/\(id)/events"), "chat_capability_token": .string(token),
            "reused_active_session": .bool(reused),
        ]
        return try! SessionResponse(json: json)
    }

    /// Runs setup to an open stream: registration, a new session `id`, the stream opened.
    mutating func open(_ id: String = "s1", reused: Bool = false, restored: Restored = Restored()) {
        feed(.start(restored, hasAPIKey: true))
        feed(.answered(.setup(epoch: machine.link.epoch), .success(.registered)))
        feed(
            .answered(
                .setup(epoch: machine.link.epoch), .success(.session(Self.sessionJSON(id, reused: reused, from: date))))
        )
        if reused { feed(.answered(.setup(epoch: machine.link.epoch), .success(.history([])))) }
        feed(.stream(generation: machine.link.streamGeneration, .state(.open)))
    }

    /// A stream event of `type` for `turnID`, with the next event id.
    mutating func event(
        _ type: String, turn turnID: String = "turn-1", request requestID: String = "req-1",
        _ payload: JSONObject = [:],
        id: String? = nil, at timestamp: Date? = nil
    ) -> SessionEvent {
        eventNumber += 1
        let envelope = EventEnvelope(
            eventID: id ?? "\(eventNumber)-0", turnID: turnID, requestID: requestID,
            timestamp: ISO8601Timestamp.format(timestamp ?? date), type: type, payload: payload)
        let data = String(decoding: envelope.json.serializedBytes(), as: UTF8.self)
        return .stream(
            generation: machine.link.streamGeneration, .event(SSEEvent(id: envelope.eventID, type: type, data: data)))
    }

    mutating func toolCall(
        _ callID: String, _ function: String = "get_time", turn: String = "turn-1", request: String = "req-1",
        arguments: JSONObject = [:], timeout: Int = 30
    ) -> SessionEvent {
        event(
            "tool_call_request", turn: turn, request: request,
            [
                "call_id": .string(callID), "function_name": .string(function), "arguments": .object(arguments),
                "timeout_seconds": .number(Double(timeout)), "human_description": "I will.", "requires_approval": true,
            ])
    }

    mutating func turnComplete(_ text: String = "Done.", turn: String = "turn-1", request: String = "req-1")
        -> SessionEvent
    {
        event(
            "turn_complete", turn: turn, request: request,
            ["full_text": .string(text), "usage": ["prompt_tokens": 3, "completion_tokens": 5]])
    }

    static func httpFailure(
        _ status: Int, _ endpoint: BackendFailurePolicy.Endpoint, detail: String = "x"
    ) -> Result<BackendAnswer, BackendFailure> {
        let body = ServerErrorBody(bytes: Array(#"{"detail":"\#(detail)"}"#.utf8))
        let error = BackendError(
            code: .httpStatus, endpoint: "\(endpoint)", message: "HTTP \(status)", status: status, serverError: body)
        return .failure(.backend(error, endpoint))
    }

    static func transportFailure(_ endpoint: BackendFailurePolicy.Endpoint) -> Result<BackendAnswer, BackendFailure> {
        .failure(
            .backend(BackendError(code: .transport, endpoint: "\(endpoint)", message: "Connection refused"), endpoint))
    }

    static func streamFailure(_ status: Int, detail: String = "x") -> EventStream.Termination {
        .failed(.httpStatus(status, body: Array(#"{"detail":"\#(detail)"}"#.utf8)))
    }

    /// 403 `chat_unavailable`: an expired capability token, or chat switched off.
    static let chatUnavailableBody = #"{"detail":{"code":"chat_unavailable","message":"Chat is unavailable"}}"#

    static func chatUnavailable(_ endpoint: BackendFailurePolicy.Endpoint) -> Result<BackendAnswer, BackendFailure> {
        let error = BackendError(
            code: .httpStatus, endpoint: "\(endpoint)", message: "HTTP 403", status: 403,
            serverError: ServerErrorBody(bytes: Array(chatUnavailableBody.utf8)))
        return .failure(.backend(error, endpoint))
    }

    var epoch: Int { machine.link.epoch }
    var generation: Int { machine.link.streamGeneration }
}
