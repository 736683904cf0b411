import ResolveKitCore

/// A resolved argument type: its schema, how generated code spells it, and its shape for reading defaults.
struct ArgumentType: Sendable, Hashable {
    /// The structure of a type, enough to read a default value literal of it.
    indirect enum Shape: Sendable, Hashable {
        /// A string, boolean or number schema.
        case scalar
        /// A raw-value enum: case name → raw value.
        case enumeration([String: JSONValue])
        case array(Shape)
        case dictionary(Shape)
        case optional(Shape)
        /// A struct: defaults of it are not put in the schema.
        case object
    }

    var schema: JSONSchema
    /// The type as generated code spells it (user types fully qualified).
    var swiftType: String
    var shape: Shape
    /// Whether `swiftType` names a Foundation type.
    var needsFoundation = false
}

/// The standard types with a fixed schema.
enum StandardTypes {
    /// JSON numbers carry integers exactly only up to 2^53, so wider integer bounds are clamped to it.
    static let exactLimit = JSONValue.maxExactInteger

    /// The schema of a standard type name, and whether it comes from Foundation.
    static func schema(for name: String) -> (JSONSchema, foundation: Bool)? {
        switch name {
        case "String": (JSONSchema(type: .string), false)
        case "Bool": (JSONSchema(type: .boolean), false)
        case "Double", "Float": (JSONSchema(type: .number), false)
        case "Decimal": (JSONSchema(type: .number), true)
        case "Date": (JSONSchema(type: .string, format: "date-time"), true)
        case "URL": (JSONSchema(type: .string, format: "uri"), true)
        case "UUID": (JSONSchema(type: .string, format: "uuid"), true)
        default: integerRange(name).map { (JSONSchema(type: .integer, minimum: $0.0, maximum: $0.1), false) }
        }
    }

    /// The bounds of an integer type name, clamped to ±2^53.
    static func integerRange(_ name: String) -> (Double, Double)? {
        switch name {
        case "Int8": (Double(Int8.min), Double(Int8.max))
        case "Int16": (Double(Int16.min), Double(Int16.max))
        case "Int32": (Double(Int32.min), Double(Int32.max))
        case "Int", "Int64": (-exactLimit, exactLimit)
        case "UInt8": (0, Double(UInt8.max))
        case "UInt16": (0, Double(UInt16.max))
        case "UInt32": (0, Double(UInt32.max))
        case "UInt", "UInt64": (0, exactLimit)
        default: nil
        }
    }
}
