extension JSONSchema {
    /// One way a value breaks its schema, with the JSON path of the offending part.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// Where, e.g. `$.rooms[2].name`; `$` is the whole value.
        public var path: String
        /// What is wrong, e.g. `expected integer, got string "x"`.
        public var message: String

        /// Creates a violation.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `$.level: must be at most 100`.
        public var description: String { "\(path): \(message)" }
    }
}

extension JSONSchema {
    /// Checks a value against the schema and returns every violation (empty when valid).
    public func validate(_ value: JSONValue) -> [Violation] {
        var violations: [Violation] = []
        validate(value, path: "$", into: &violations)
        return violations
    }

    private func validate(_ value: JSONValue, path: String, into violations: inout [Violation]) {
        func report(_ message: String) { violations.append(Violation(path: path, message: message)) }
        if value.isNull, nullable || type == .null { return }
        if let type, !Self.matches(value, type) {
            report("expected \(type.rawValue)\(nullable ? " or null" : ""), got \(Self.describe(value))")
            return
        }
        if let enumValues, !enumValues.contains(value) {
            // Sorted keys: the message must not depend on the dictionary's iteration order.
            let allowed = enumValues.map { $0.serialized(options: .sortedKeys) }.joined(separator: ", ")
            report("must be one of \(allowed)")
        }
        switch value {
        case .string(let text): validateString(text, report: report)
        case .number(let number):
            if let minimum, number < minimum { report("must be at least \(JSONValue.number(minimum))") }
            if let maximum, number > maximum { report("must be at most \(JSONValue.number(maximum))") }
        case .array(let elements): validateArray(elements, path: path, into: &violations)
        case .object(let members): validateObject(members, path: path, into: &violations)
        case .bool, .null: break
        }
    }

    private func validateString(_ text: String, report: (String) -> Void) {
        let length = text.unicodeScalars.count
        if let minLength, length < minLength { report("must have at least \(Self.count(minLength, "character"))") }
        if let maxLength, length > maxLength { report("must have at most \(Self.count(maxLength, "character"))") }
        if let pattern {
            if let regex = try? Regex(pattern) {
                if (try? regex.firstMatch(in: text)) == nil { report("must match the pattern \(pattern)") }
            } else {
                report("cannot be checked: the schema's pattern \(pattern) is not a valid regular expression")
            }
        }
        if let format, let problem = Self.formatProblem(text, format: format) { report(problem) }
    }

    private func validateArray(_ elements: [JSONValue], path: String, into violations: inout [Violation]) {
        if let minItems, elements.count < minItems {
            violations.append(Violation(path: path, message: "must have at least \(Self.count(minItems, "item"))"))
        }
        if let maxItems, elements.count > maxItems {
            violations.append(Violation(path: path, message: "must have at most \(Self.count(maxItems, "item"))"))
        }
        if uniqueItems, Set(elements).count != elements.count {
            violations.append(Violation(path: path, message: "items must be unique"))
        }
        if let items {
            for (index, element) in elements.enumerated() {
                items.validate(element, path: "\(path)[\(index)]", into: &violations)
            }
        }
    }

    private func validateObject(_ members: JSONObject, path: String, into violations: inout [Violation]) {
        for name in required where members[name] == nil {
            violations.append(Violation(path: Self.memberPath(path, name), message: "is required"))
        }
        for name in members.keys.sorted() {
            let member = members[name]!
            let memberPath = Self.memberPath(path, name)
            if let schema = properties[name] {
                schema.validate(member, path: memberPath, into: &violations)
                continue
            }
            switch additionalProperties {
            case .allowed(false): violations.append(Violation(path: memberPath, message: "is not allowed"))
            case .schema(let schema): schema.validate(member, path: memberPath, into: &violations)
            case .allowed(true), nil: break
            }
        }
    }

    static func memberPath(_ path: String, _ name: String) -> String {
        let isPlain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
        return isPlain ? "\(path).\(name)" : "\(path)[\(JSONValue.string(name).serialized())]"
    }

    static func matches(_ value: JSONValue, _ type: ValueType) -> Bool {
        switch (type, value) {
        case (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array), (.null, .null),
            (.number, .number):
            return true
        case (.integer, .number(let number)): return number.rounded() == number && number.isFinite
        default: return false
        }
    }

    static func describe(_ value: JSONValue) -> String {
        var text = value.serialized(options: .sortedKeys)
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return "\(value.typeName) \(text)"
    }

    /// `1 character`, `3 characters`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func formatProblem(_ text: String, format: String) -> String? {
        switch format {
        case "date-time":
            return ISO8601Timestamp.parse(text) == nil ? "must be an ISO-8601 date-time" : nil
        case "uuid":
            let hex = text.unicodeScalars.filter { $0 != "-" }
            let isUUID = text.count == 36 && hex.count == 32 && hex.allSatisfy { $0.properties.isASCIIHexDigit }
            return isUUID ? nil : "must be a UUID"
        case "uri":
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
            else { return "must be an absolute URI" }
            return nil
        default: return nil
        }
    }
}
