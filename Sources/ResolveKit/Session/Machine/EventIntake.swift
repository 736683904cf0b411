import Foundation
import ResolveKitHTTP

/// How far the session's event stream has been read and which events must not be acted on twice: the cursor, the
/// guard against replayed events after a reopen without cursor (§10.9), the server time of the newest event, and
/// the turn-level events already handled. Pure.
struct EventIntake: Sendable {
    var cursor = CursorKeeper()
    /// Replayed events to ignore after a reopen without cursor.
    var replayGuard: ReplayGuard?
    /// The server time of the newest event handled in this session (the cutoff of a replay without cursor).
    private var newestHandledEventTime: Date?
    var handledEvents = HandledEvents()

    /// What became of one stream event.
    enum Intake: Sendable {
        /// Act on it.
        case handle(EventEnvelope, ResolveKitEvent)
        /// Skip it, for this reason (logged at debug level), or silently.
        case skip(String?, ResolveKitLogger.Level)
    }

    /// A new session: nothing of the old one's reading applies; the cursor is the stored one when it belongs to it.
    mutating func sessionOpened(cursor stored: String?) {
        cursor.restore(stored)
        replayGuard = nil
        newestHandledEventTime = nil
    }

    /// Takes one SSE event: moves the cursor (returning whether to persist it now), decodes it and applies the
    /// replay guard and the handled-events dedupe. A malformed event is skipped; the cursor still moves past it so
    /// it is not fetched again (§10.12).
    mutating func take(_ event: SSEEvent, now: Duration) -> (Intake, persistCursor: Bool) {
        var persist = false
        if let id = event.id, !id.isEmpty, cursor.advance(to: id, now: now) { persist = true }
        let envelope: EventEnvelope
        let typed: ResolveKitEvent
        do {
            envelope = try EventEnvelope(jsonBytes: Array(event.data.utf8))
            typed = try envelope.event()
        } catch {
            return (.skip("Skipped a malformed \(event.type) event \(event.id ?? "-"): \(error)", .warning), persist)
        }
        if case .toolCallRequest(let request) = typed {
            if replayGuard?.isStale(envelope, timeoutSeconds: request.timeoutSeconds) == true {
                let line = "Ignored replayed call \(request.callID) (\(request.functionName)) from before this connection"
                return (.skip(line, .debug), persist)
            }
        } else if replayGuard?.isStale(envelope) == true {
            return (.skip(nil, .debug), persist)
        }
        if let emitted = ISO8601Timestamp.parse(envelope.timestamp),
            newestHandledEventTime.map({ $0 < emitted }) ?? true
        {
            newestHandledEventTime = emitted
        }
        return (.handle(envelope, typed), persist)
    }

    /// Records a turn-level event; `false` when it was handled before.
    mutating func firstTime(_ envelope: EventEnvelope, _ event: ResolveKitEvent) -> Bool {
        guard let key = HandledEvents.key(for: envelope, event) else { return true }
        return handledEvents.insert(key)
    }

    /// On a reused session without a stored cursor, the history says what the replayed stream repeats.
    mutating func guardReplayOfReusedSession(lastActivityAt: String, turnInProgress: Bool) {
        guard cursor.value == nil, let cutoff = ISO8601Timestamp.parse(lastActivityAt) else { return }
        replayGuard = ReplayGuard(cutoff: cutoff, turnInProgress: turnInProgress)
    }

    /// Before reopening without a cursor: the replay repeats the session's whole history, and the call journal and
    /// ``HandledEvents`` are bounded, so events from before the newest one already handled are skipped, except
    /// calls still within their timeout (which the journal holds); events renumbered by a restarted backend are
    /// newer and pass. Server time only.
    mutating func resetCursor() {
        cursor.clear()
        guard let newest = newestHandledEventTime, replayGuard.map({ $0.cutoff < newest }) ?? true else { return }
        replayGuard = ReplayGuard(cutoff: newest, turnInProgress: true)
    }
}
