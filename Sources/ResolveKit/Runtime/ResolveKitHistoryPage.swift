import Foundation

/// One page of the conversation as the backend keeps it (``ResolveKitRuntime/history(limit:before:)``): its
/// messages oldest first, each with its id, role, text and time, and the cursor of the page before it.
public struct ResolveKitHistoryPage: Sendable, Hashable {
    /// Where a page ends: the next older page starts before it. Opaque and stable (it names a message's place in
    /// the session, which never changes); a cursor of another session is refused.
    public struct Cursor: Sendable, Hashable, CustomStringConvertible {
        let sessionID: String
        let sequence: Int

        /// The cursor as text, to keep across requests (`<session>:<sequence>`).
        public var description: String { "\(sessionID):\(sequence)" }

        /// A cursor from its text; `nil` for text no page gave.
        public init?(_ text: String) {
            guard let colon = text.lastIndex(of: ":"), let sequence = Int(text[text.index(after: colon)...]) else {
                return nil
            }
            self.init(sessionID: String(text[..<colon]), sequence: sequence)
        }

        init(sessionID: String, sequence: Int) {
            self.sessionID = sessionID
            self.sequence = sequence
        }
    }

    /// The messages, oldest first.
    public var messages: [ResolveKitChatMessage]
    /// The cursor to pass as `before` for the next older page; `nil` at the start of the conversation.
    public var older: Cursor?

    /// The page of at most `limit` messages of session `sessionID` that come right before `before` (or the newest).
    /// - Throws: ``ResolveKitError/Code/invalidMessage`` for a cursor of another session.
    static func make(
        _ transcript: [SessionMessage], sessionID: String, limit: Int, before: Cursor?
    ) throws(ResolveKitError) -> ResolveKitHistoryPage {
        if let before, before.sessionID != sessionID {
            throw ResolveKitError(
                .invalidMessage, "The cursor \(before) belongs to another session; start again without a cursor")
        }
        let ordered = transcript.sorted { $0.sequenceNumber < $1.sequenceNumber }
            .filter { message in before.map { message.sequenceNumber < $0.sequence } ?? true }
        let page = ordered.suffix(max(1, limit))
        let older = page.count < ordered.count ? page.first.map { Cursor(sessionID: sessionID, sequence: $0.sequenceNumber) } : nil
        return ResolveKitHistoryPage(
            messages: page.map { message in
                var line = ResolveKitChatMessage(
                    id: message.id, role: ResolveKitChatMessage.Role(rawValue: message.role) ?? .assistant,
                    text: message.content ?? "")
                line.time = ISO8601Timestamp.parse(message.createdAt)
                return line
            },
            older: older)
    }
}

/// What became of feedback (``ResolveKitRuntime/submitFeedback(rating:comment:)``): the backend keeps one per
/// session.
public enum ResolveKitFeedbackOutcome: Sendable, Hashable {
    /// The backend recorded it.
    case recorded
    /// This session already had feedback (409); the backend keeps the first.
    case alreadyGiven
}
