public import ResolveKitHTTP

extension ResolveKitRuntime {
    /// A page of the conversation as the backend keeps it (`GET /messages`), oldest first: the newest `limit`
    /// messages, or those right before `before` (a cursor an earlier page gave).
    /// - Throws: ``ResolveKitError``: `notStarted`, `invalidMessage` for a cursor of another session, or `backend`.
    public func history(limit: Int = 50, before: ResolveKitHistoryPage.Cursor? = nil) async throws(ResolveKitError)
        -> ResolveKitHistoryPage
    {
        guard let driver else { throw ResolveKitError(.notStarted, "Not connected: start the runtime first") }
        let (sessionID, transcript) = try await driver.history()
        return try ResolveKitHistoryPage.make(transcript, sessionID: sessionID, limit: limit, before: before)
    }

    /// Sends again a message whose delivery failed (``ResolveKitChatMessage/Delivery/failed(_:)``), with its request
    /// id: a backend that took it the first time (its answer was lost) answers with that turn instead of starting a
    /// second. A result, as ``sendMessage(_:)``'s: ``ResolveKitSendOutcome/rejectedTurnInProgress`` while a turn
    /// runs, ``ResolveKitSendOutcome/failed(_:)`` with `invalidMessage` for an id that did not fail.
    public func resend(messageID: String) async -> ResolveKitSendOutcome {
        guard let driver else { return .failed(ResolveKitError(.notStarted, "Not connected: start the runtime first")) }
        guard messageID.hasPrefix("user-") else {
            return .failed(ResolveKitError(.invalidMessage, "\(messageID) is not a message this runtime sent"))
        }
        return await driver.resend(requestID: String(messageID.dropFirst("user-".count)))
    }

    /// Rates the conversation, as the backend asks with ``ResolveKitRuntimeEvent/feedbackRequested(immediate:)``:
    /// one rating per session (a second is ``ResolveKitFeedbackOutcome/alreadyGiven``).
    /// - Parameters:
    ///   - rating: 1 (poor) to 5 (excellent).
    ///   - comment: At most 2000 characters.
    /// - Throws: ``ResolveKitError``: `invalidMessage` for a rating or comment out of range, `notStarted`, `backend`.
    public func submitFeedback(rating: Int, comment: String? = nil) async throws(ResolveKitError)
        -> ResolveKitFeedbackOutcome
    {
        guard let driver else { throw ResolveKitError(.notStarted, "Not connected: start the runtime first") }
        return try await driver.submitFeedback(rating: rating, comment: comment)
    }

    /// The wire as it happens, for diagnostics: every event frame the stream reads and every HTTP exchange's
    /// metadata (method, URL without secrets, status, timings). Off until read: with no subscriber nothing is
    /// recorded. Each access is a new subscription (the newest 4096 records are buffered); it ends, once its
    /// buffered records are read, when the runtime stops.
    public var wireTap: AsyncStream<ResolveKitWireRecord> { wire.subscribe() }
}

/// One record of ``ResolveKitRuntime/wireTap``.
public enum ResolveKitWireRecord: Sendable, Hashable {
    /// An event frame as the stream read it.
    case event(id: String?, type: String, data: String)
    /// An HTTP exchange, as ``NetworkSettings/observer`` sees it: no header values, no query values, no user info.
    case exchange(HTTPExchangeRecord)
}
