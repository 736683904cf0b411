import ResolveKitCore

/// Reads a parameter's default value expression as a JSON value for the schema's `default`, when it is a literal:
/// a number, string, boolean, array or dictionary literal of literals, or a case (`.fast`) of a raw-value enum.
enum DefaultValueEvaluator {
    /// The JSON value of `tokens` as a value of `type`; `nil` when the expression is not a literal of that type.
    static func value(of tokens: [Token], as type: ArgumentType) -> JSONValue? {
        value(of: tokens[...], shape: type.shape, schema: type.schema)
    }

    private static func value(of tokens: ArraySlice<Token>, shape: ArgumentType.Shape, schema: JSONSchema) -> JSONValue?
    {
        guard let first = tokens.first, let last = tokens.last else { return nil }
        switch shape {
        case .optional(let inner):
            return tokens.count == 1 && first.isIdentifier("nil")
                ? nil : value(of: tokens, shape: inner, schema: schema)
        case .enumeration(let cases):
            let beforeLast = tokens[tokens.endIndex - 2 < tokens.startIndex ? tokens.startIndex : tokens.endIndex - 2]
            guard tokens.count >= 2, last.kind == .identifier, beforeLast.isPunctuation(".") else { return nil }
            return cases[last.text]
        case .array(let element):
            guard let items = schema.items, let parts = elements(of: tokens) else { return nil }
            var values: [JSONValue] = []
            for part in parts {
                guard let value = value(of: part, shape: element, schema: items) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .dictionary(let element):
            guard case .schema(let valueSchema) = schema.additionalProperties, let parts = elements(of: tokens) else {
                return nil
            }
            if parts.count == 1, parts[0].count == 1, parts[0].first?.isPunctuation(":") == true { return .object([:]) }
            var members: JSONObject = [:]
            for part in parts {
                guard part.count >= 3, let key = part.first?.stringValue, part[part.startIndex + 1].isPunctuation(":"),
                    let value = value(of: part.dropFirst(2), shape: element, schema: valueSchema)
                else { return nil }
                members[key] = value
            }
            return .object(members)
        case .object:
            return nil
        case .scalar:
            return scalar(tokens, schema: schema)
        }
    }

    /// The comma-separated elements of a bracketed literal, `nil` if `tokens` is not one.
    private static func elements(of tokens: ArraySlice<Token>) -> [ArraySlice<Token>]? {
        guard let first = tokens.first, first.isPunctuation("["), let last = tokens.last, last.isPunctuation("]"),
            tokens.count >= 2
        else { return nil }
        let inner = tokens.dropFirst().dropLast()
        var parts: [ArraySlice<Token>] = []
        var depth = 0
        var start = inner.startIndex
        for index in inner.indices {
            let token = inner[index]
            if token.kind == .punctuation, ["(", "[", "{"].contains(token.text) { depth += 1 }
            if token.kind == .punctuation, [")", "]", "}"].contains(token.text) { depth -= 1 }
            if depth == 0, token.isPunctuation(",") {
                parts.append(inner[start..<index])
                start = index + 1
            }
        }
        if start < inner.endIndex { parts.append(inner[start..<inner.endIndex]) }
        return parts.filter { !$0.isEmpty }
    }

    private static func scalar(_ tokens: ArraySlice<Token>, schema: JSONSchema) -> JSONValue? {
        guard schema.format == nil, let last = tokens.last else { return nil }
        let isNegative = tokens.count == 2 && tokens.first?.isPunctuation("-") == true
        guard tokens.count == 1 || isNegative else { return nil }
        switch schema.type {
        case .string:
            return last.stringValue.map(JSONValue.string)
        case .boolean:
            return last.isIdentifier("true") ? .bool(true) : last.isIdentifier("false") ? .bool(false) : nil
        case .integer, .number:
            guard last.kind == .number, let magnitude = number(last.text, integer: schema.type == .integer) else {
                return nil
            }
            return .number(isNegative ? -magnitude : magnitude)
        default:
            return nil
        }
    }

    private static func number(_ text: String, integer: Bool) -> Double? {
        let digits = text.replacingUnderscores
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            return Int(digits.dropFirst(2), radix: radix).map(Double.init)
        }
        if integer { return Int(digits).map(Double.init) }
        return Double(digits)
    }
}
