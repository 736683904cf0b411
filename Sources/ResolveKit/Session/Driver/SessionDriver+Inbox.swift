extension SessionDriver {
    /// The events waiting for the loop, who runs it, and the publications it holds back.
    struct Inbox: Sendable {
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
}

extension SessionEvent {
    /// Whether the event came from the session's event stream.
    var isStream: Bool { if case .stream = self { true } else { false } }
}
