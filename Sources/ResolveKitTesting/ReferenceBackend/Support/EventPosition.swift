/// Where an event sits in a session's stream, for "strictly after the cursor" comparisons.
struct EventPosition: Sendable, Comparable {
    var major: Int
    var minor: Int

    static func < (lhs: EventPosition, rhs: EventPosition) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}

/// A `?cursor=` value read the way the configured store reads it (WireProtocol §5.4–§5.5).
enum StreamCursor: Sendable, Equatable {
    /// No cursor: every retained event.
    case start
    /// Events strictly after this position.
    case after(EventPosition)
    /// In-memory mode's fallback for a non-numeric cursor: string comparison of ids.
    case afterText(String)
    /// Redis mode rejects a malformed id on every read: nothing is ever delivered.
    case unreadable

    init(_ text: String?, style: ReferenceBackend.EventIDStyle) {
        guard let text, !text.isEmpty else {
            self = .start
            return
        }
        switch style {
        case .numeric:
            if let number = Int(text) {
                self = .after(EventPosition(major: number, minor: 0))
            } else {
                self = .afterText(text)
            }
        case .redis:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 1, let millis = Int(parts[0]), millis >= 0 {
                self = .after(EventPosition(major: millis, minor: Int.max))
            } else if parts.count == 2, let millis = Int(parts[0]), let sequence = Int(parts[1]), millis >= 0,
                sequence >= 0
            {
                self = .after(EventPosition(major: millis, minor: sequence))
            } else {
                self = .unreadable
            }
        }
    }

    func admits(_ event: StoredEvent) -> Bool {
        switch self {
        case .start: true
        case .after(let position): event.position > position
        case .afterText(let text): event.id > text
        case .unreadable: false
        }
    }
}

/// Issues event ids in the configured style.
struct EventIDGenerator: Sendable {
    var style: ReferenceBackend.EventIDStyle
    private var lastMillis = 0
    private var lastSequence = -1
    private var counter = 0

    init(style: ReferenceBackend.EventIDStyle) { self.style = style }

    /// The next id for an event appended at `millis` (Unix milliseconds).
    mutating func next(millis: Int) -> (id: String, position: EventPosition) {
        switch style {
        case .numeric:
            counter += 1
            return (String(counter), EventPosition(major: counter, minor: 0))
        case .redis:
            if millis > lastMillis {
                lastMillis = millis
                lastSequence = 0
            } else {
                lastSequence += 1
            }
            return ("\(lastMillis)-\(lastSequence)", EventPosition(major: lastMillis, minor: lastSequence))
        }
    }

    /// Forgets the numbering, as an in-memory backend does when it restarts.
    mutating func restart() {
        counter = 0
        lastMillis = 0
        lastSequence = -1
    }
}
