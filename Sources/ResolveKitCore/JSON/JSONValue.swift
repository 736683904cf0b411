/// A JSON object: member names to values.
public typealias JSONObject = [String: JSONValue]

/// A JSON document as a value: what tool arguments, results, schemas and wire payloads are made of.
///
/// Numbers are `Double`, so integers are exact only within ±2^53. The parser rejects integer literals outside
/// that range with ``JSONParseError/Reason/integerOutOfRange`` instead of rounding them; `true` and `1` never
/// convert into each other.
public enum JSONValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A number. Integers are exact within ±2^53 (``JSONValue/maxExactInteger``).
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An object; member order is not kept (serialisation can sort keys).
    case object(JSONObject)
    /// An array.
    case array([JSONValue])
    /// `null`.
    case null

    /// The largest integer magnitude a `Double` holds exactly: 2^53.
    public static let maxExactInteger: Double = 9_007_199_254_740_992
}

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if this is a number with no fractional part that fits exactly.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) <= Self.maxExactInteger else {
            return nil
        }
        return Int(value)
    }

    /// The boolean, if this is `true` or `false` (never a number).
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` of an object; `nil` for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The JSON type name of this value as JSON Schema spells it (`"integer"` for whole numbers).
    public var typeName: String {
        switch self {
        case .string: "string"
        case .number(let value): value.rounded() == value && value.isFinite ? "integer" : "number"
        case .bool: "boolean"
        case .object: "object"
        case .array: "array"
        case .null: "null"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates a number value from an integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array value from a literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object value from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text with sorted keys.
    public var description: String { serialized(options: .sortedKeys) }
}
