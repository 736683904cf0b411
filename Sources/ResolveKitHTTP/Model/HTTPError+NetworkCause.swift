import ResolveKitCore

extension HTTPError: NetworkCauseCarrying {
    /// The error itself: its code names the cause.
    package var networkCause: (any Error & Sendable)? { self }
}

extension EventStreamError: NetworkCauseCarrying {
    /// A status the network in front of the server answered (a proxy's 407, nginx refusing a client certificate), or
    /// the transport's error of the connects that failed (the last one, after an exhausted budget).
    package var networkCause: (any Error & Sendable)? {
        if let status, let refusal = HTTPError.networkRefusal(status: status, body: body) { return refusal }
        return (underlying as? any NetworkCauseCarrying)?.networkCause
    }
}
