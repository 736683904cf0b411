extension ResolveKitHost {
    /// How a host manages its sessions.
    public struct Options: Sendable {
        /// The most sessions open at once; opening one more closes the least recently used idle one (its
        /// undelivered results are delivered first). Sessions in use are never closed, so the count may exceed the
        /// cap while more than this many keys have a turn running.
        public var maxOpenSessions: Int
        /// A session unused this long closes its event stream; the next use resumes it by cursor. `nil` keeps
        /// sessions open until evicted or drained.
        public var idleTimeout: Duration?
        /// How long a closing session may take to deliver its pending results before it stops anyway (they stay
        /// in its state folder for the next start).
        public var closeTimeout: Duration
        /// The dependencies of one key's session, laid over the configuration's: the calling user, their allowed
        /// directories, a connection for their tenant.
        public var dependencies: @Sendable (_ key: String) -> ResolveKitDependencies

        /// Creates options; by default at most 1,000 open sessions, closed after 5 minutes unused.
        public init(
            maxOpenSessions: Int = 1000,
            idleTimeout: Duration? = .seconds(300),
            closeTimeout: Duration = .seconds(10),
            dependencies: @escaping @Sendable (_ key: String) -> ResolveKitDependencies = { _ in ResolveKitDependencies() }
        ) {
            self.maxOpenSessions = max(1, maxOpenSessions)
            self.idleTimeout = idleTimeout
            self.closeTimeout = closeTimeout
            self.dependencies = dependencies
        }
    }
}
