public import ResolveKitCore

/// How urgent an event is.
public enum Priority: Int, Codable, Sendable {
    case low = 1, normal, high
}

/// Where something happens.
public struct Place: Codable, Sendable {
    /// The place's name.
    public var name: String
    /// The floor, if known.
    /// - Minimum: -5
    public var floor: Int?
}

/// A calendar event.
public struct Event: Codable, Sendable {
    /// What the event is called.
    /// - MinLength: 1
    public var title: String
    /// Where it happens.
    public var place: Place
    /// How urgent it is.
    public var priority: Priority
    /// Who comes, if anyone was named.
    public var attendees: [String]?
    /// Computed, so not part of the schema.
    public var kind: String { "event" }
}

/// The events created so far, for the tests to observe a `Void` function.
public enum EventLog {
    /// One entry per call: title, place, notified priorities and session.
    nonisolated(unsafe) public static var titles: [String] = []
}

// @ResolveKit(name: "create_event", requiresApproval: true, timeout: 300)
/// Puts an event in the calendar.
/// - Parameters:
///   - event: The event to create.
///   - notify: Whom to tell.
public struct CreateEvent: ResolveKitFunction {
    /// Creates the function.
    public init() {}

    /// Records the event.
    public func perform(event: Event, notify: [Priority] = [.high], context: ResolveKitFunctionContext) async throws {
        EventLog.titles.append("\(event.title)@\(event.place.name)#\(notify.map(\.rawValue))/\(context.sessionID)")
    }
}
