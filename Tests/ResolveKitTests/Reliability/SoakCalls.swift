import Foundation
import ResolveKit
import ResolveKitTesting

/// The server's view of every tool call of the soak, read from the events each session retained, and the
/// exactly-once invariants checked against it after every turn.
struct SoakCalls {
    struct Call {
        var id: String
        var functionName: String
        var sessionID: String
        var hasValidArguments: Bool
        /// Unanswered when the backend forgot its events, or emitted while renumbered events were hidden behind
        /// the runtime's cursor: the runtime may not see it before the server times it out.
        var wasHidden: Bool
    }

    private(set) var calls: [String: Call] = [:]
    /// The calls no result has reached the server for yet. Being answered is final, so the checks after every
    /// poll look only at these, not at every call of the run.
    private var awaitingAnswer: Set<String> = []
    /// How many of each session's events were read, by lowercased session id (the backend's key).
    private var readEvents: [String: Int] = [:]
    /// Sessions a fault ended while calls may have been pending: their results are dropped by design.
    private(set) var endedSessions: Set<String> = []
    /// While set, the backend renumbered its events and the runtime has not yet reopened its stream since.
    private var hiddenUntilResetAfter: Int?

    /// Reads tool calls from events not read yet.
    mutating func collect(from backend: ReferenceBackend, sessions: [String]) {
        if let resets = hiddenUntilResetAfter, SoakActivity.shared.streamResets > resets { hiddenUntilResetAfter = nil }
        for session in sessions.map({ $0.lowercased() }) {
            let start = readEvents[session] ?? 0
            let events = backend.events(inSession: session, from: start)
            for event in events where event.type == "tool_call_request" { record(event, session: session) }
            readEvents[session] = start + events.count
        }
    }

    /// The backend forgot its events (renumbering); `forgotten` is what it dropped, taken under the lock that
    /// dropped them (reading first and then restarting would miss a call emitted in between). Reads what was not
    /// read yet, then starts over. A call not answered yet may not have reached the runtime either; its event is
    /// gone, so nobody can answer it any more.
    mutating func eventsForgotten(_ forgotten: [String: [ReferenceBackend.RecordedEvent]], backend: ReferenceBackend) {
        for (session, events) in forgotten {
            let unread = events.dropFirst(readEvents[session] ?? 0)
            for event in unread where event.type == "tool_call_request" { record(event, session: session) }
        }
        let counters = backend.counters
        for id in awaitingAnswer where !Self.wasAnswered(id, counters) { calls[id]?.wasHidden = true }
        readEvents = [:]
        hiddenUntilResetAfter = SoakActivity.shared.streamResets
    }

    mutating func sessionEnded(_ sessionID: String) { endedSessions.insert(sessionID.lowercased()) }

    private mutating func record(_ event: ReferenceBackend.RecordedEvent, session: String) {
        guard let line = event.frame.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
            let envelope = try? JSONValue(parsing: String(line.dropFirst(6))),
            let payload = envelope["payload"], let id = payload["call_id"]?.stringValue,
            let name = payload["function_name"]?.stringValue
        else { return }
        let valid = name != "soak_write" || payload["arguments"]?["value"]?.intValue != nil
        calls[id] = Call(
            id: id, functionName: name, sessionID: session, hasValidArguments: valid,
            wasHidden: hiddenUntilResetAfter != nil)
        awaitingAnswer.insert(id)
    }

    /// Calls of sessions still alive that the runtime never answered at all. A call the server timed out
    /// before the runtime ran it is not among them: a stalled stream can hide it until its turn is over, and
    /// then the runtime rightly ignores it.
    mutating func unanswered(_ counters: ReferenceBackend.Counters) -> [Call] {
        awaitingAnswer = awaitingAnswer.filter { !Self.wasAnswered($0, counters) }
        return awaitingAnswer.compactMap { calls[$0] }.filter { call in
            let missedInTime = counters.timedOutCalls.contains(call.id) && ExecutionLedger.shared.count(call.id) == 0
            let lostToRestart = counters.callsLostToRestarts.contains(call.id)
            return !endedSessions.contains(call.sessionID) && !call.wasHidden && !missedInTime && !lostToRestart
        }
    }

    static func wasAnswered(_ callID: String, _ counters: ReferenceBackend.Counters) -> Bool {
        let counts = counters.toolResults[callID] ?? .init()
        return counts.accepted + counts.duplicates + counts.ignored + counts.notPending > 0
    }

    /// Every violated invariant, in words; empty when all hold.
    mutating func violations(_ counters: ReferenceBackend.Counters) -> [String] {
        var problems: [String] = []
        var acceptedCalls = 0
        for call in calls.values {
            let runs = ExecutionLedger.shared.count(call.id)
            if runs > 1 { problems.append("\(call.id) (\(call.functionName)) ran \(runs) times") }
            if !call.hasValidArguments, runs > 0 { problems.append("\(call.id) ran with arguments breaking its schema") }
            let counts = counters.toolResults[call.id] ?? .init()
            if counts.accepted > 1 { problems.append("\(call.id): \(counts.accepted) results accepted") }
            if counts.ignored > 0 { problems.append("\(call.id): \(counts.ignored) different results posted") }
            acceptedCalls += counts.accepted
        }
        for call in unanswered(counters) { problems.append("\(call.id) (\(call.functionName)): result lost") }
        // With every server turn over, each emitted call either got its result, or the server timed it out, or a
        // backend restart lost its turn.
        let lost = counters.callsLostToRestarts.count
        if acceptedCalls + counters.toolCallsTimedOut + lost != calls.count {
            problems.append(
                "\(calls.count) calls emitted, \(acceptedCalls) accepted, \(counters.toolCallsTimedOut) timed out, "
                    + "\(lost) lost to restarts")
        }
        return problems
    }

    var hiddenCalls: Int { calls.values.filter(\.wasHidden).count }
    var executions: Int { ExecutionLedger.shared.total(of: calls.keys.map { ToolCallID($0) }) }
    var duplicateExecutions: Int { calls.keys.reduce(0) { $0 + max(0, ExecutionLedger.shared.count($1) - 1) } }
}
