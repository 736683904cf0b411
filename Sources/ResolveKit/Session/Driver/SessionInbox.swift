/// A session driver's events waiting for its loop, who runs that loop, and the publications it holds back.
struct SessionInbox: Sendable {
    /// Who runs the loop over the inbox.
    enum Loop: Sendable {
        /// Nobody: the next event's sender runs it.
        case idle
        /// A thread is in the loop; other senders only add their events.
        case running
        /// A task queued behind other sessions' stream chunks will run it; a stream event of this session runs it
        /// at once instead.
        case queued
    }

    private var events: [SessionEvent] = []
    private var head = 0
    /// Who runs the loop over the inbox, if anyone.
    var loop = Loop.idle
    /// Publications held back while the I/O that came after them started (see
    /// ``SessionAction/mayOvertakePublications``).
    var unpublished: [Publication] = []

    /// Whether events wait that the loop has not taken.
    var hasEvents: Bool { head < events.count }

    /// Whether one of the waiting events came from the session's event stream.
    var holdsStreamEvent: Bool { events[head...].contains(where: \.isStream) }

    mutating func append(_ event: SessionEvent) {
        events.append(event)
    }

    /// The next event in order; `nil` when none waits.
    mutating func takeNext() -> SessionEvent? {
        guard hasEvents else { return nil }
        defer { head += 1 }
        return events[head]
    }

    /// Empties the inbox and frees its storage: an event is a few hundred bytes, and an idle session kept the
    /// capacity of its last burst (half a KiB each of a thousand idle sessions) to save one allocation per burst.
    mutating func release() {
        events.removeAll()
        head = 0
    }
}

extension SessionEvent {
    /// Whether the event came from the session's event stream.
    var isStream: Bool { if case .stream = self { true } else { false } }
}
