public import ResolveKitCore

/// The value of a span, event or resource attribute, as OpenTelemetry's attribute model has them.
public enum AttributeValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A flag.
    case bool(Bool)
    /// A whole number (sent as a string in OTLP JSON, as 64-bit integers are).
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// Several texts.
    case strings([String])
    /// Several whole numbers.
    case ints([Int64])
}

extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral
{
    /// A string attribute.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer attribute.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A boolean attribute.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A floating-point attribute.
    public init(floatLiteral value: Double) { self = .double(value) }
}

/// One attribute: a key such as `gen_ai.tool.name` and its value.
public struct SpanAttribute: Sendable, Hashable {
    /// The key, by OpenTelemetry's semantic conventions where one applies.
    public var key: String
    /// The value.
    public var value: AttributeValue

    /// Creates an attribute.
    public init(_ key: String, _ value: AttributeValue) {
        self.key = key
        self.value = value
    }
}

/// What a span describes, as OTLP numbers it.
public enum SpanKind: Int, Sendable, Hashable {
    /// Work inside the process (a function's run, an approval wait).
    case `internal` = 1
    /// Handling a request from another process (an MCP `tools/call`).
    case server = 2
    /// A request to another process (an HTTP request, a turn of the remote agent).
    case client = 3
    /// Handing a message to a queue.
    case producer = 4
    /// Taking a message from a queue.
    case consumer = 5
}

/// Whether a span's operation succeeded, as OTLP numbers it.
public enum SpanStatus: Sendable, Hashable {
    /// Not set: the default, meaning no error.
    case unset
    /// Explicitly successful.
    case ok
    /// Failed; the description says how (bounded text, never arguments or secrets).
    case error(description: String)

    /// OTLP's `StatusCode`: 0 unset, 1 ok, 2 error.
    public var code: Int {
        switch self {
        case .unset: 0
        case .ok: 1
        case .error: 2
        }
    }
}

/// Something that happened at one instant of a span, such as a decision.
public struct SpanEvent: Sendable, Hashable {
    /// The event's name.
    public var name: String
    /// When, in nanoseconds since the Unix epoch.
    public var timeUnixNano: UInt64
    /// Its attributes.
    public var attributes: [SpanAttribute]

    /// Creates an event.
    public init(name: String, timeUnixNano: UInt64, attributes: [SpanAttribute] = []) {
        self.name = name
        self.timeUnixNano = timeUnixNano
        self.attributes = attributes
    }
}

/// A link from a span to another span that is not its parent (a batch that served several requests).
public struct SpanLink: Sendable, Hashable {
    /// The linked span.
    public var context: SpanContext
    /// The link's attributes.
    public var attributes: [SpanAttribute]

    /// Creates a link.
    public init(_ context: SpanContext, attributes: [SpanAttribute] = []) {
        self.context = context
        self.attributes = attributes
    }
}
