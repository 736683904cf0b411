/// Why the loopback server could not start or a socket operation failed.
public struct LoopbackServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `bind_failed`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// A socket, pipe or thread could not be created.
        public static let resourceFailed = Code("resource_failed")
        /// Binding 127.0.0.1 or listening failed.
        public static let bindFailed = Code("bind_failed")
        /// The peer closed the connection or a read or write failed.
        public static let connectionClosed = Code("connection_closed")
        /// The server was stopped.
        public static let stopped = Code("stopped")
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong.
    public var message: String
    /// The `errno` of the failing system call, when there was one.
    public var errno: Int32?

    /// Creates an error.
    public init(code: Code, message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// The code, the message and the `errno`.
    public var description: String {
        if let errno { return "\(code): \(message) (errno \(errno))" }
        return "\(code): \(message)"
    }
}
