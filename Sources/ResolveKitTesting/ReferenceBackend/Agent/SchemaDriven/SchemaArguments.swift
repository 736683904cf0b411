public import ResolveKitCore
import Foundation

/// Builds a call's arguments from its JSON Schema and the user's message, the way a model reads a question:
///
/// 1. a parameter named with a value (`room: kitchen`, `room=kitchen`, `room kitchen`) takes it, kept within the
///    schema's bounds; an enum value said anywhere names itself;
/// 2. a number just before a parameter's name (`30 degrees celsius`, `the last 50 lines`) is that parameter's;
/// 3. a required parameter still without a value takes a value of the message that fits its schema: a number within
///    its bounds, or a quoted text or id-like token (`A-1234`, `cron.service`, `/var/log/syslog`) that meets its
///    pattern and length;
/// 4. only then a required one gets a value of the schema's own: its default, its first enum value, its minimum, or
///    the example of its description (`e.g. "A-1001"`). An optional one that is not named is left out.
public enum SchemaArguments {
    /// The arguments, or the names of required parameters no value could be found for.
    public static func build(schema: JSONValue, text: String) -> Result<JSONValue, MissingArguments> {
        let properties = schema["properties"]?.objectValue ?? [:]
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let names = properties.keys.sorted()
        var message = MessageValues(text)
        var arguments: JSONObject = [:]
        for name in names {
            guard let said = valueSaid(for: name, properties[name] ?? [:], in: text) else { continue }
            arguments[name] = said.value
            if let token = said.token { message.use(text: token) }
        }
        for name in names where arguments[name] == nil {
            let property = properties[name] ?? [:]
            if let number = message.takeNumber(before: spokenWords(of: name), fitting: property) {
                arguments[name] = number
            }
        }
        for name in names where arguments[name] == nil && required.contains(name) {
            arguments[name] = message.take(fitting: properties[name] ?? [:])
        }
        var missing: [String] = []
        for name in names where arguments[name] == nil && required.contains(name) {
            if let filled = fill(name, properties[name] ?? [:]) {
                arguments[name] = filled
            } else {
                missing.append(name)
            }
        }
        return missing.isEmpty ? .success(.object(arguments)) : .failure(MissingArguments(names: missing))
    }

    /// The words a person says for a parameter: `max_results` or `maxResults` → `max`, `results`.
    static func spokenWords(of name: String) -> [String] {
        FunctionMatcher.words(ReadableResult.words(name).lowercased())
    }

    /// Required parameters the message gave no value for and the schema offers none for.
    public struct MissingArguments: Error, Sendable, Hashable {
        /// Their names.
        public var names: [String]
    }

    /// The value the message gives the parameter by name, coerced to its type and kept within its bounds, with the
    /// token it came from; or an enum value said anywhere.
    static func valueSaid(
        for name: String, _ property: JSONValue, in text: String
    ) -> (value: JSONValue, token: String?)? {
        let spoken = name.replacingOccurrences(of: "_", with: " ")
        for label in Set([name, spoken]) {
            let pattern = "(?i)\\b" + NSRegularExpression.escapedPattern(for: label)
                + "\\s*(?:[:=]|\\s+(?:is|to|of)?\\s*)\\s*(\"[^\"]*\"|'[^']*'|[^\\s,;]+)"
            guard let regex = try? Regex(pattern), let match = text.firstMatch(of: regex),
                let token = match.output[1].substring.map(String.init)
            else { continue }
            let unquoted = token.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if let value = coerce(unquoted, property) { return (value, unquoted) }
        }
        // An enum value said anywhere names itself.
        let words = Set(FunctionMatcher.words(text.lowercased()))
        if let options = property["enum"]?.arrayValue?.compactMap(\.stringValue),
            let said = options.first(where: { words.contains($0.lowercased()) })
        {
            return (.string(said), nil)
        }
        return nil
    }

    static func coerce(_ token: String, _ property: JSONValue) -> JSONValue? {
        if let options = property["enum"]?.arrayValue?.compactMap(\.stringValue) {
            return options.first { $0.lowercased() == token.lowercased() }.map(JSONValue.string)
        }
        switch property["type"]?.stringValue {
        case "integer":
            return Double(token).map { .number(clamp($0.rounded(), property)) }
        case "number":
            return Double(token).map { .number(clamp($0, property)) }
        case "boolean":
            switch token.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: return nil
            }
        case "string":
            return .string(fit(token, property))
        default:
            return nil
        }
    }

    /// A value the schema accepts for a required parameter the message did not give.
    static func fill(_ name: String, _ property: JSONValue) -> JSONValue? {
        if let value = property["default"] { return value }
        if let first = property["enum"]?.arrayValue?.first { return first }
        switch property["type"]?.stringValue {
        case "integer", "number": return .number(clamp(property["minimum"]?.doubleValue ?? 0, property))
        case "boolean": return true
        case "string":
            if property["format"]?.stringValue == "date-time" { return .string(ISO8601Timestamp.format(Date())) }
            guard let example = example(in: property["description"]?.stringValue ?? "") else { return nil }
            return .string(fit(example, property))
        case "array": return .array([])
        default: return nil
        }
    }

    /// The first `e.g. "…"` of a description.
    static func example(in description: String) -> String? {
        guard let regex = try? Regex("e\\.g\\.\\s*\"([^\"]+)\""), let match = description.firstMatch(of: regex) else {
            return nil
        }
        return match.output[1].substring.map(String.init)
    }

    static func clamp(_ value: Double, _ property: JSONValue) -> Double {
        var value = value
        if let minimum = property["minimum"]?.doubleValue { value = max(value, minimum) }
        if let maximum = property["maximum"]?.doubleValue { value = min(value, maximum) }
        return value
    }

    static func fit(_ text: String, _ property: JSONValue) -> String {
        var text = text
        if let maximum = property["maxLength"]?.doubleValue, text.count > Int(maximum) { text = String(text.prefix(Int(maximum))) }
        if let minimum = property["minLength"]?.doubleValue, text.count < Int(minimum) {
            text += String(repeating: "x", count: Int(minimum) - text.count)
        }
        return text
    }
}
