import ResolveKit

/// Sends one message and follows its turn through the runtime's events until it ends, the time is up, or the
/// task is cancelled (the service is stopping).
struct TurnExchange: Sendable {
    let runtime: ResolveKitRuntime
    let timeout: Duration

    func run(_ text: String, id: JSONValue?) async -> ServiceResponse {
        let events = runtime.events  // subscribed before sending, so no event of the turn is missed
        let turnID: String
        switch await runtime.sendMessage(text) {
        case .accepted(let accepted): turnID = accepted
        case .rejectedTurnInProgress:
            return .error(id: id, "an earlier turn is still running on this session; try again when it has ended")
        case .rejectedInvalidText(let reason): return .error(id: id, reason)
        case .failed(let reason): return .error(id: id, "the message was not sent: \(reason)")
        }
        let timeout = timeout
        return await withTaskGroup(of: (TurnTranscript, String?)?.self) { group in
            group.addTask {
                var transcript = TurnTranscript(turnID: turnID)
                for await event in events where transcript.apply(event) { return (transcript, nil) }
                return (transcript, "the service is shutting down; the turn did not finish")
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let (transcript, interruption) = first { return transcript.response(id: id, interruption: interruption) }
            // The time is up, or this task was cancelled: the follower returns what it has seen so far.
            let partial = await group.next() ?? nil
            let reason =
                Task.isCancelled
                ? "the service is shutting down; the turn did not finish" : "no answer within \(timeout)"
            return (partial?.0 ?? TurnTranscript(turnID: turnID)).response(id: id, interruption: reason)
        }
    }
}
