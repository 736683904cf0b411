import Foundation

/// Decides which replayed events to ignore when a reused session is opened without a stored cursor (§10.9):
/// events emitted before the session was reopened repeat what the history already shows, and a tool call from
/// then is run only if a turn is still in progress and the server may still be waiting for it.
struct ReplayGuard: Sendable {
    let cutoff: Date
    let turnInProgress: Bool

    func isStale(_ envelope: EventEnvelope, timeoutSeconds: Int? = nil) -> Bool {
        guard let emitted = ISO8601Timestamp.parse(envelope.timestamp), emitted < cutoff else { return false }
        guard let timeoutSeconds else { return true }
        return !turnInProgress || emitted.addingTimeInterval(Double(timeoutSeconds)) <= cutoff
    }
}
