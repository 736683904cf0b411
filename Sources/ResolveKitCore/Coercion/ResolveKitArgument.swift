public import Foundation

/// A Swift type a tool argument can be coerced into. Generated `invoke` code reads arguments through this.
///
/// The standard types conform here. For your own types, `rk-codegen` emits the conformance: enums with a
/// `String` or `Int` raw value use ``resolveKitCoerceRawValue(_:)``, `Decodable` structs use
/// ``resolveKitDecode(_:)``.
public protocol ResolveKitArgument {
    /// Converts a JSON argument into this type.
    /// - Throws: ``TypeCoercionError`` saying what was expected.
    static func resolveKitCoerce(_ value: JSONValue) throws -> Self
}

extension String: ResolveKitArgument {
    /// See ``TypeResolver/string(_:)``.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> String { try TypeResolver.string(value) }
}

extension Bool: ResolveKitArgument {
    /// See ``TypeResolver/bool(_:)``.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Bool { try TypeResolver.bool(value) }
}

extension Double: ResolveKitArgument {
    /// See ``TypeResolver/double(_:)``.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Double { try TypeResolver.double(value) }
}

extension Float: ResolveKitArgument {
    /// A number that fits a `Float`; see ``TypeResolver/double(_:)``.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Float {
        let number = try TypeResolver.double(value)
        guard abs(number) <= Double(Float.greatestFiniteMagnitude) else {
            throw TypeCoercionError(expected: "number", actual: value, reason: "it is outside Float's range")
        }
        return Float(number)
    }
}

extension Decimal: ResolveKitArgument {
    /// A number or numeric string.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Decimal {
        if case .string(let text) = value, let decimal = Decimal(string: String(text.trimmingASCIIWhitespace())) {
            return decimal
        }
        return Decimal(try TypeResolver.double(value))
    }
}

extension Int: ResolveKitArgument {}
extension Int8: ResolveKitArgument {}
extension Int16: ResolveKitArgument {}
extension Int32: ResolveKitArgument {}
extension Int64: ResolveKitArgument {}
extension UInt: ResolveKitArgument {}
extension UInt8: ResolveKitArgument {}
extension UInt16: ResolveKitArgument {}
extension UInt32: ResolveKitArgument {}
extension UInt64: ResolveKitArgument {}

extension ResolveKitArgument where Self: FixedWidthInteger {
    /// See ``TypeResolver/integer(_:as:)``.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Self { try TypeResolver.integer(value, as: Self.self) }
}

extension Date: ResolveKitArgument {
    /// An ISO-8601 date-time string (`2026-11-22T10:00:00Z`, fractions and offsets allowed).
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Date {
        guard case .string(let text) = value, let date = ISO8601Timestamp.parse(text) else {
            throw TypeCoercionError(expected: "date-time string", actual: value)
        }
        return date
    }
}

extension URL: ResolveKitArgument {
    /// An absolute URL string.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> URL {
        guard case .string(let text) = value, let url = URL(string: text), url.scheme != nil else {
            throw TypeCoercionError(expected: "absolute URL string", actual: value)
        }
        return url
    }
}

extension UUID: ResolveKitArgument {
    /// A UUID string.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> UUID {
        guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
            throw TypeCoercionError(expected: "UUID string", actual: value)
        }
        return uuid
    }
}

extension Optional: ResolveKitArgument where Wrapped: ResolveKitArgument {
    /// `null` becomes `nil`; anything else is coerced to `Wrapped`.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Wrapped? {
        if case .null = value { return nil }
        return try Wrapped.resolveKitCoerce(value)
    }
}

extension Array: ResolveKitArgument where Element: ResolveKitArgument {
    /// An array whose every element coerces to `Element`.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> [Element] {
        guard case .array(let elements) = value else { throw TypeCoercionError(expected: "array", actual: value) }
        return try elements.enumerated().map { position, element in
            do {
                return try Element.resolveKitCoerce(element)
            } catch let error as TypeCoercionError {
                throw TypeCoercionError(expected: error.expected, actual: error.actual, reason: "at index \(position)")
            }
        }
    }
}

extension Set: ResolveKitArgument where Element: ResolveKitArgument {
    /// An array of distinct elements.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> Set<Element> {
        let elements = try [Element].resolveKitCoerce(value)
        let set = Set(elements)
        guard set.count == elements.count else {
            throw TypeCoercionError(expected: "array of unique items", actual: value, reason: "it has duplicates")
        }
        return set
    }
}

extension Dictionary: ResolveKitArgument where Key == String, Value: ResolveKitArgument {
    /// An object whose every member coerces to `Value`.
    public static func resolveKitCoerce(_ value: JSONValue) throws -> [String: Value] {
        guard case .object(let members) = value else { throw TypeCoercionError(expected: "object", actual: value) }
        var result: [String: Value] = [:]
        // Sorted, so that the member named in the error does not depend on the dictionary's iteration order.
        for key in members.keys.sorted() {
            do {
                result[key] = try Value.resolveKitCoerce(members[key]!)
            } catch let error as TypeCoercionError {
                throw TypeCoercionError(expected: error.expected, actual: error.actual, reason: "at key '\(key)'")
            }
        }
        return result
    }
}

extension ResolveKitArgument where Self: RawRepresentable, RawValue: ResolveKitArgument {
    /// Coerces the raw value, then requires it to name a case.
    public static func resolveKitCoerceRawValue(_ value: JSONValue) throws -> Self {
        let raw = try RawValue.resolveKitCoerce(value)
        guard let result = Self(rawValue: raw) else {
            throw TypeCoercionError(expected: "one of the allowed values of \(Self.self)", actual: value)
        }
        return result
    }
}

extension ResolveKitArgument where Self: Decodable {
    /// Decodes the value with `Decodable` (nested argument structs).
    public static func resolveKitDecode(_ value: JSONValue) throws -> Self {
        do {
            return try value.decode(Self.self)
        } catch let error as DecodingError {
            throw TypeCoercionError(expected: "\(Self.self)", actual: value, reason: error.shortDescription)
        }
    }
}

extension DecodingError {
    var shortDescription: String {
        func path(_ context: Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch self {
        case .keyNotFound(let key, let context): return "missing '\(key.stringValue)'\(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type)\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(self)"
        }
    }
}
