import Foundation
import ResolveKit
import ResolveKitTerminal
import Synchronization

/// The interactive mode: every batch the service publishes is shown with ``TerminalApprover``'s checklist, one at
/// a time, and the decision is sent back. A call decided elsewhere meanwhile (another operator, a timeout, the
/// end of its turn) leaves the prompt, which then asks again about the calls still waiting.
struct Watch {
    let connection: ServiceConnection
    let screen = TerminalScreen(terminal: .live)

    private struct State {
        /// Batches in arrival order, with the calls still waiting.
        var batches: [ToolApprovalRequest] = []
        /// The session and calls of the prompt on screen, and the task running it.
        var prompting: (sessionID: String, callIDs: Set<String>, task: Task<ToolBatchDecision, Never>)?
        var closed = false
        /// Ctrl-C at the prompt: its calls are declined, then rk-approve quits.
        var interrupted = false
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    func run() async -> Int32 {
        let shared = Shared()
        let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        connection.send(["command": "subscribe", "id": "subscribe", "terminal": RKApprove.terminalName])
        screen.print(StyledLine("rk-approve: watching for calls that need approval (Ctrl-C to quit)", .dim))
        let reader = Task {
            for await line in connection.lines where handle(line, shared) { changed.yield() }
            shared.state.withLock { $0.closed = true }
            shared.state.withLock { $0.prompting?.task }?.cancel()
            changed.yield()
        }
        defer { reader.cancel() }
        let approver = TerminalApprover(
            screen: screen, onInterrupt: { shared.state.withLock { $0.interrupted = true } })
        var decisionNumber = 0
        for await _ in changes {
            while let request = shared.state.withLock({ $0.closed ? nil : $0.batches.first }) {
                let task = Task { await approver.decide(request) }
                shared.state.withLock { $0.prompting = (request.sessionID, Set(request.calls.map(\.id.rawValue)), task) }
                let before = approver.allowedFunctions(sessionID: request.sessionID)
                let decision = await task.value
                let stillWaiting = shared.state.withLock { state -> Set<String> in
                    state.prompting = nil
                    return Set(
                        state.batches.first { $0.batchID == request.batchID && $0.sessionID == request.sessionID }?
                            .calls.map(\.id.rawValue) ?? [])
                }
                if shared.state.withLock({ $0.interrupted }) {
                    return await quitAfterInterrupt(decision, for: request, waiting: stillWaiting, shared)
                }
                guard !stillWaiting.isEmpty, stillWaiting == Set(request.calls.map(\.id.rawValue)) else { continue }
                decisionNumber += 1
                send(decision, for: request, number: decisionNumber)
                for function in approver.allowedFunctions(sessionID: request.sessionID).subtracting(before) {
                    connection.send([
                        "command": "remember", "function": .string(function), "id": "remember",
                        "scope": ["session": .string(request.sessionID)], "terminal": RKApprove.terminalName,
                    ])
                }
                shared.state.withLock { state in
                    state.batches.removeAll { $0.batchID == request.batchID && $0.sessionID == request.sessionID }
                }
            }
            if shared.state.withLock({ $0.closed }) { break }
        }
        screen.print(StyledLine("rk-approve: the service closed the connection", .yellow))
        return 0
    }

    /// Ctrl-C at the prompt: sends the declines of the calls still waiting, lets the service answer them (it closes
    /// the connection once it has read everything), and quits with 130, as Ctrl-C anywhere else would.
    private func quitAfterInterrupt(
        _ decision: ToolBatchDecision, for request: ToolApprovalRequest, waiting: Set<String>, _ shared: Shared
    ) async -> Int32 {
        var still = request
        still.calls = request.calls.filter { waiting.contains($0.id.rawValue) }
        if !still.calls.isEmpty { send(decision, for: still, number: 0) }
        connection.finishSending()
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while !shared.state.withLock({ $0.closed }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        screen.print(StyledLine("rk-approve: Ctrl-C: the calls shown were declined; quitting", .dim))
        return 130
    }

    /// Sends the prompt's decisions, except declines the prompt made only because a deadline passed (the
    /// service records those as timeouts itself).
    private func send(_ decision: ToolBatchDecision, for request: ToolApprovalRequest, number: Int) {
        var approve: [String] = []
        var declines: [String: [String]] = [:]
        for call in request.calls {
            switch decision.decision(for: call.id).verdict {
            case .approve, .approveEdited, .attributed: approve.append(call.id.rawValue)
            case .decline(let reason):
                let text = reason ?? "User denied action"
                if text != "Approval timed out" { declines[text, default: []].append(call.id.rawValue) }
            }
        }
        let session = JSONValue.string(request.sessionID)
        if !approve.isEmpty {
            connection.send([
                "command": "approve", "call_ids": .array(approve.map(JSONValue.string)), "session_id": session,
                "id": .string("decision-\(number)"), "terminal": RKApprove.terminalName,
            ])
        }
        for (reason, ids) in declines {
            connection.send([
                "command": "decline", "call_ids": .array(ids.map(JSONValue.string)), "session_id": session,
                "reason": .string(reason), "id": .string("decision-\(number)"), "terminal": RKApprove.terminalName,
            ])
        }
    }

    /// Applies one line from the service: batches join the queue; a call decided or withdrawn elsewhere leaves it
    /// (and the prompt showing it is cancelled, to ask again about what is left). Returns whether the queue grew.
    private func handle(_ line: JSONValue, _ shared: Shared) -> Bool {
        let clock = ResolveKitClock.continuous
        var arrived: [ToolApprovalRequest] = []
        if line["id"] == "subscribe" {
            arrived = line["pending"]?.arrayValue?.compactMap { ApprovalWire.request($0, clock: clock) } ?? []
        } else if line["event"] == "requested", let batch = line["batch"],
            let request = ApprovalWire.request(batch, clock: clock)
        {
            arrived = [request]
        } else if line["event"] == "decided" || line["event"] == "withdrawn", let callID = line["call_id"]?.stringValue
        {
            let sessionID = line["session_id"]?.stringValue
            let interrupted = shared.state.withLock { state -> Task<ToolBatchDecision, Never>? in
                for index in state.batches.indices where sessionID == nil || state.batches[index].sessionID == sessionID
                {
                    state.batches[index].calls.removeAll { $0.id.rawValue == callID }
                }
                state.batches.removeAll { $0.calls.isEmpty }
                guard let prompting = state.prompting, prompting.sessionID == sessionID || sessionID == nil,
                    prompting.callIDs.contains(callID)
                else { return nil }
                return prompting.task
            }
            if let interrupted {
                let by = line["decided_by"]?.stringValue.map { " by \($0)" } ?? ""
                let what =
                    line["event"] == "withdrawn" ? "withdrawn" : (line["decision"]?.stringValue ?? "decided") + by
                screen.print(StyledLine("call \(callID) was \(what) elsewhere", .yellow))
                interrupted.cancel()
            }
            return false
        } else if line["status"] == "error" {
            screen.print(StyledLine("rk-approve: \(line["error"]?.stringValue ?? "refused")", .red))
            return false
        }
        guard !arrived.isEmpty else { return false }
        shared.state.withLock { state in
            for request in arrived
            where !state.batches.contains(where: { $0.batchID == request.batchID && $0.sessionID == request.sessionID })
            {
                state.batches.append(request)
            }
        }
        return true
    }
}
