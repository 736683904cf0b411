extension EventStream {
    /// The connection state as reported to the consumer.
    public enum State: Sendable, Equatable {
        /// A connection is being opened.
        case connecting
        /// The server answered 2xx; events flow.
        case open
        /// Waiting `delay` before the next connect. `attempt` counts consecutive failures (from 1); it is 0, with
        /// a zero delay, for the routine reconnect after the server ended a healthy stream.
        case reconnecting(attempt: Int, delay: Duration)
        /// The stream was cancelled and has cleaned up.
        case closed
        /// The stream stopped for good; see ``EventStreamError``.
        case failed(EventStreamError)
    }

    /// What ``EventStream/run(_:)`` hands to its consumer, in order.
    public enum Element: Sendable, Equatable {
        /// An event, delivered once: duplicates of recently seen ids are dropped.
        case event(SSEEvent)
        /// A comment line such as `keep-alive`; proof that the connection is alive, no content.
        case comment(String)
        /// An event the parser had to drop because it exceeded a limit; the stream goes on.
        case discarded(SSEError)
        /// The connection state changed.
        case state(State)
    }

    /// Why ``EventStream/run(_:)`` returned.
    public enum Termination: Sendable, Equatable {
        /// The calling task was cancelled.
        case cancelled
        /// The stream failed for good (a terminal HTTP status, or the reconnect budget is spent).
        case failed(EventStreamError)
    }
}
