/// The tolerant argument coercions of the reference SDK: models often send `"3"` for 3 or `1` for `true`.
///
/// Each coercion accepts the forms listed and nothing else; it never guesses. The `coerce…` functions return
/// `nil` on failure (the seed SDK's shape); the throwing ones say what was expected and what arrived.
public enum TypeResolver {
    /// A string; numbers and booleans are accepted as their text (`3`, `2.5`, `true`).
    public static func coerceString(_ value: JSONValue) -> String? { try? string(value) }
    /// A boolean; also `1`/`0` and the strings `true`/`false`/`yes`/`no`/`1`/`0` in any case.
    public static func coerceBool(_ value: JSONValue) -> Bool? { try? bool(value) }
    /// An `Int`; also whole numbers written as `3.0` and integer strings. `3.5` and out-of-range values fail.
    public static func coerceInt(_ value: JSONValue) -> Int? { try? integer(value, as: Int.self) }
    /// A `Double`; also numeric strings.
    public static func coerceDouble(_ value: JSONValue) -> Double? { try? double(value) }

    /// A string; numbers and booleans are accepted as their text.
    /// - Throws: ``TypeCoercionError`` for objects, arrays and null.
    public static func string(_ value: JSONValue) throws(TypeCoercionError) -> String {
        switch value {
        case .string(let text): return text
        case .number: return value.serialized()
        case .bool(let flag): return flag ? "true" : "false"
        default: throw TypeCoercionError(expected: "string", actual: value)
        }
    }

    /// A boolean; also `1`/`0` and the strings `true`/`false`/`yes`/`no`/`1`/`0` in any case.
    /// - Throws: ``TypeCoercionError`` for any other number or string, and other types.
    public static func bool(_ value: JSONValue) throws(TypeCoercionError) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(1): return true
        case .number(0): return false
        case .string(let text):
            switch text.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: break
            }
        default: break
        }
        throw TypeCoercionError(expected: "boolean", actual: value)
    }

    /// An integer of type `Integer`; also whole numbers written as `3.0` and integer strings such as `"42"`.
    /// - Throws: ``TypeCoercionError`` for fractions, values outside `Integer`'s range, booleans and other types.
    public static func integer<Integer: FixedWidthInteger>(
        _ value: JSONValue,
        as type: Integer.Type = Integer.self
    ) throws(TypeCoercionError) -> Integer {
        let number: Double
        switch value {
        case .number(let given): number = given
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            if let exact = Integer(trimmed) { return exact }
            guard let parsed = Double(trimmed), parsed.isFinite else {
                throw TypeCoercionError(expected: "integer", actual: value)
            }
            number = parsed
        default: throw TypeCoercionError(expected: "integer", actual: value)
        }
        guard number.rounded() == number else {
            throw TypeCoercionError(expected: "integer", actual: value, reason: "it has a fractional part")
        }
        guard let exact = Integer(exactly: number), abs(number) <= JSONValue.maxExactInteger else {
            throw TypeCoercionError(
                expected: "integer",
                actual: value,
                reason: "it is outside \(Integer.self)'s range \(Integer.min)...\(Integer.max)"
            )
        }
        return exact
    }

    /// A `Double`; also numeric strings such as `"2.5"`.
    /// - Throws: ``TypeCoercionError`` for booleans, non-numeric strings and other types.
    public static func double(_ value: JSONValue) throws(TypeCoercionError) -> Double {
        switch value {
        case .number(let number): return number
        case .string(let text):
            if let number = Double(text.trimmingASCIIWhitespace()), number.isFinite { return number }
        default: break
        }
        throw TypeCoercionError(expected: "number", actual: value)
    }
}

/// A value that could not be coerced to the type a function expects.
public struct TypeCoercionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON Schema type or Swift type name that was expected.
    public var expected: String
    /// The value that arrived.
    public var actual: JSONValue
    /// Why it was rejected, when more than a type mismatch.
    public var reason: String?

    /// Creates an error.
    public init(expected: String, actual: JSONValue, reason: String? = nil) {
        self.expected = expected
        self.actual = actual
        self.reason = reason
    }

    /// `expected integer, got 3.5 (it has a fractional part)`.
    public var description: String {
        var text = actual.serialized(options: .sortedKeys)
        if text.count > 80 { text = String(text.prefix(77)) + "..." }
        let base = "expected \(expected), got \(actual.typeName) \(text)"
        return reason.map { "\(base) (\($0))" } ?? base
    }
}

extension String {
    func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
