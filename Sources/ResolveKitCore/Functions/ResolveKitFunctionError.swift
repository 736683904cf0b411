/// Why a tool call produced an error result instead of a value.
///
/// These are results, not crashes: the runtime turns each into a `status: "error"` tool result whose `error`
/// text is ``description``. Throw ``invalidArguments(_:)`` from a hand-written `invoke` when the input is wrong.
public struct ResolveKitFunctionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `invalid_arguments`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The arguments are missing, of the wrong type, or violate the schema.
        public static let invalidArguments = Code("invalid_arguments")
        /// No function of that name is registered in this process.
        public static let unknownFunction = Code("unknown_function")
        /// The function exists but this session may not call it.
        public static let notAllowed = Code("not_allowed")
        /// The call did not finish before its deadline.
        public static let timedOut = Code("timed_out")
        /// A person or policy declined the call.
        public static let declined = Code("declined")
        /// The call was cancelled (shutdown, session replaced).
        public static let cancelled = Code("cancelled")
        /// The function threw.
        public static let executionFailed = Code("execution_failed")
    }

    /// The kind of failure.
    public var code: Code
    /// What the model (and the operator) is told.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The arguments do not fit the function.
    public static func invalidArguments(_ message: String) -> Self { Self(code: .invalidArguments, message: message) }
    /// No function of that name is registered.
    public static func unknownFunction(_ name: String) -> Self {
        Self(code: .unknownFunction, message: "Unknown function: \(name)")
    }
    /// The function is registered but not allowed in this session.
    public static func notAllowed(_ name: String) -> Self {
        Self(code: .notAllowed, message: "Function \(name) is not available in this session")
    }
    /// The call ran out of time.
    public static func timedOut(after seconds: Int) -> Self {
        Self(code: .timedOut, message: "Timed out after \(seconds)s")
    }
    /// A person or policy declined the call; the message is what the model is told.
    public static func declined(_ message: String = "User denied action") -> Self {
        Self(code: .declined, message: message)
    }
    /// The call was cancelled before it finished.
    public static func cancelled(_ reason: String) -> Self { Self(code: .cancelled, message: reason) }
    /// The function threw `message`.
    public static func executionFailed(_ message: String) -> Self { Self(code: .executionFailed, message: message) }

    /// The message alone, as sent in the tool result's `error` field.
    public var description: String { message }
}
