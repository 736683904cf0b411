/// Reads a function's arguments one by one, collecting every problem instead of stopping at the first.
///
/// Generated `invoke` code uses it like this:
/// ```swift
/// var reader = ResolveKitArgumentReader(arguments)
/// let room = reader.required("room", as: String.self)
/// let level = reader.optional("level", as: Int.self) ?? 50
/// guard let room, reader.isValid else { throw reader.failure() }
/// ```
public struct ResolveKitArgumentReader: Sendable {
    /// The arguments being read.
    public let arguments: JSONObject
    /// One sentence per missing or invalid argument, in reading order.
    public private(set) var problems: [String] = []

    /// Creates a reader over a call's arguments.
    public init(_ arguments: JSONObject) {
        self.arguments = arguments
    }

    /// Whether every argument read so far was present and valid.
    public var isValid: Bool { problems.isEmpty }

    /// Reads an argument that must be present and not `null`; records a problem and returns `nil` otherwise.
    public mutating func required<Value: ResolveKitArgument>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        guard let value = arguments[name], !value.isNull else {
            problems.append("missing required argument '\(name)'")
            return nil
        }
        return coerce(name, value, as: type)
    }

    /// Reads an argument that may be absent or `null` (then `nil`); records a problem if present but invalid.
    public mutating func optional<Value: ResolveKitArgument>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        guard let value = arguments[name], !value.isNull else { return nil }
        return coerce(name, value, as: type)
    }

    private mutating func coerce<Value: ResolveKitArgument>(_ name: String, _ value: JSONValue, as type: Value.Type) -> Value? {
        do {
            return try Value.resolveKitCoerce(value)
        } catch {
            problems.append("argument '\(name)': \(error)")
            return nil
        }
    }

    /// The error naming every problem: `Invalid arguments: missing required argument 'room'; argument 'level': …`.
    public func failure() -> ResolveKitFunctionError {
        .invalidArguments("Invalid arguments: " + problems.joined(separator: "; "))
    }
}
