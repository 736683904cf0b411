/// A minimal structured logger: the library never prints, it hands records to the sink its host supplies.
///
/// Secrets (API key, capability token) are never put in a record by the library.
public struct ResolveKitLogger: Sendable {
    /// How important a record is.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// Step-by-step detail.
        case trace
        /// Diagnostic detail.
        case debug
        /// Normal operation worth noting.
        case info
        /// Something unexpected that the library handled.
        case warning
        /// Something failed.
        case error

        /// Orders levels by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        /// The lower-case level name.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// One log record.
    public struct Record: Sendable {
        /// The record's importance.
        public var level: Level
        /// The subsystem, e.g. `runtime`, `event-stream`.
        public var label: String
        /// The message.
        public var message: String
        /// Key–value details.
        public var metadata: [String: String]
    }

    /// Records below this level are dropped before they reach the sink.
    public var minimumLevel: Level
    /// The subsystem label put on records.
    public var label: String
    /// Key–value details put on every record (a record's own keys win), e.g. the service or tenant it serves.
    public var metadata: [String: String] = [:]
    /// The span whose `trace_id` and `span_id` go on every record (a record's own keys and ``metadata`` win), e.g.
    /// the call a function's logger belongs to. Written out only when a record is logged: a call whose function logs
    /// nothing pays nothing for it.
    public var spanContext: SpanContext?
    private let sink: (@Sendable (Record) -> Void)?

    /// Creates a logger that passes records at or above `minimumLevel` to `sink`.
    public init(label: String, minimumLevel: Level = .info, sink: @escaping @Sendable (Record) -> Void) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    private init() {
        self.label = ""
        self.minimumLevel = .error
        self.sink = nil
    }

    /// A logger that drops everything.
    public static let disabled = ResolveKitLogger()

    /// The same sink under another label.
    public func labeled(_ label: String) -> ResolveKitLogger {
        var copy = self
        copy.label = label
        return copy
    }

    /// The same sink with `metadata` added to every record's details.
    public func with(metadata extra: [String: String]) -> ResolveKitLogger {
        var copy = self
        copy.metadata.merge(extra) { $1 }
        return copy
    }

    /// Whether a record at `level` would reach the sink.
    public func isEnabled(_ level: Level) -> Bool { sink != nil && level >= minimumLevel }

    /// Logs a record; the message is only built when the level is enabled.
    public func log(
        _ level: Level,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard let sink, level >= minimumLevel else { return }
        var details = self.metadata.isEmpty ? metadata() : self.metadata.merging(metadata()) { $1 }
        if let spanContext { details.merge(spanContext.logMetadata) { own, _ in own } }
        sink(Record(level: level, label: label, message: message(), metadata: details))
    }

    /// Logs at `.debug`.
    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), metadata: metadata())
    }
    /// Logs at `.info`.
    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), metadata: metadata())
    }
    /// Logs at `.warning`.
    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), metadata: metadata())
    }
    /// Logs at `.error`.
    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), metadata: metadata())
    }
}
