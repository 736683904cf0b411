/// One dispatched server-sent event: the fields of one block of lines that ended with a blank line.
///
/// Only blocks that carried at least one `data` field become events; see ``SSEParser``.
public struct SSEEvent: Sendable, Hashable {
    /// The `id` field of this event's block, or `nil` when the block had none (or only one containing NUL).
    ///
    /// An empty string means the server reset the id. The id that persists from event to event, as the
    /// WHATWG specification defines it, is ``SSEParser/lastEventID``.
    public var id: String?
    /// The `event` field; `"message"` when the block had none or an empty one.
    public var type: String
    /// The `data` fields of the block joined with `"\n"`, one leading space after each colon removed.
    public var data: String
    /// The `retry` field of the block in milliseconds, when it held only ASCII digits.
    public var retry: Int?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - id: The block's `id` field, if any.
    ///   - type: The event type; defaults to `"message"`.
    ///   - data: The joined data.
    ///   - retry: The block's valid `retry` field, if any.
    public init(id: String? = nil, type: String = "message", data: String, retry: Int? = nil) {
        self.id = id
        self.type = type
        self.data = data
        self.retry = retry
    }
}
