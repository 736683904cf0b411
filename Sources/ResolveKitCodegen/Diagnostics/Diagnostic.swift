/// A problem the generator found in the scanned sources, with where it is.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The sources cannot be turned into code; nothing is written.
        case error
        /// Worth a look; the output is still written.
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// What is wrong and how to fix it.
    public var message: String
    /// Where it is.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(severity: Severity, message: String, location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// An error at `location`.
    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(severity: .error, message: message, location: location)
    }

    /// A warning at `location`.
    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(severity: .warning, message: message, location: location)
    }

    /// `path:line:column: error: message`, as compilers print it.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
