import ResolveKitCore

/// One entry of a FastAPI 422 body: `{"type","loc","msg","input","ctx"?}` (WireProtocol §3).
struct ValidationIssue: Error, Sendable {
    var type: String
    var location: [WireJSON]
    var message: String
    var input: WireJSON
    var context: WireJSON?

    var wire: WireJSON {
        var members: [(String, WireJSON)] = [
            ("type", .string(type)), ("loc", .array(location)), ("msg", .string(message)), ("input", input),
        ]
        if let context { members.append(("ctx", context)) }
        return .object(members)
    }

    /// pydantic's `ctx` for a custom validator's `ValueError`.
    static let valueErrorContext = WireJSON.object([("error", WireJSON.object([]))])

    static func missing(_ location: [WireJSON], input: WireJSON) -> ValidationIssue {
        ValidationIssue(type: "missing", location: location, message: "Field required", input: input)
    }

    static func invalidUUID(_ text: String) -> ValidationIssue {
        let offending = text.unicodeScalars.enumerated().first {
            !$0.element.properties.isASCIIHexDigit && $0.element != "-"
        }
        let detail =
            offending.map {
                "invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `\($0.element)` at \($0.offset + 1)"
            }
            ?? "invalid group length in group 4: expected 12, found \(text.count)"
        return ValidationIssue(
            type: "uuid_parsing", location: [.string("path"), .string("session_id")],
            message: "Input should be a valid UUID, \(detail)", input: .string(text),
            context: .object([("error", .string(detail))]))
    }

    static func invalidJSON(offset: Int) -> ValidationIssue {
        ValidationIssue(
            type: "json_invalid", location: [.string("body"), .int(offset)], message: "JSON decode error",
            input: .object([]), context: .object([("error", .string("Expecting value"))]))
    }
}

/// Reads and checks the members of one request object, collecting issues like pydantic does.
struct FieldChecker {
    let object: JSONObject
    let location: [WireJSON]
    var issues: [ValidationIssue] = []

    init(_ object: JSONObject, at location: [WireJSON]) {
        self.object = object
        self.location = location
    }

    /// Checks that the body is an object; returns a checker for it or the issue.
    static func body(_ value: JSONValue?, location: [WireJSON] = [.string("body")]) -> Result<
        FieldChecker, ValidationIssue
    > {
        guard let value else { return .failure(.missing(location, input: .null)) }
        guard let object = value.objectValue else {
            return .failure(
                ValidationIssue(
                    type: "model_attributes_type", location: location,
                    message: "Input should be a valid dictionary or object to extract fields from",
                    input: WireJSON(sorted: value)))
        }
        return .success(FieldChecker(object, at: location))
    }

    private func at(_ key: String) -> [WireJSON] { location + [.string(key)] }

    mutating func issue(
        _ key: String, _ type: String, _ message: String, _ input: JSONValue, _ context: WireJSON? = nil
    ) {
        issues.append(
            ValidationIssue(
                type: type, location: at(key), message: message, input: WireJSON(sorted: input), context: context))
    }

    mutating func forbidExtra(_ allowed: Set<String>) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            issue(key, "extra_forbidden", "Extra inputs are not permitted", object[key]!)
        }
    }

    /// `nil` for absent or null (recording `missing` when required).
    private mutating func present(_ key: String, required: Bool) -> JSONValue? {
        guard let value = object[key], !value.isNull || required else {
            if required { issues.append(.missing(at(key), input: WireJSON(sorted: .object(object)))) }
            return nil
        }
        return value
    }

    mutating func string(_ key: String, required: Bool = false, minLength: Int = 0, maxLength: Int? = nil) -> String? {
        guard let value = present(key, required: required) else { return nil }
        guard let text = value.stringValue else {
            issue(key, "string_type", "Input should be a valid string", value)
            return nil
        }
        checkLength(key, text, minLength: minLength, maxLength: maxLength)
        return text
    }

    mutating func checkLength(_ key: String, _ text: String, minLength: Int, maxLength: Int?) {
        let length = text.unicodeScalars.count
        if length < minLength {
            issue(
                key, "string_too_short",
                "String should have at least \(minLength) character\(minLength == 1 ? "" : "s")", .string(text),
                .object([("min_length", .int(minLength))]))
        } else if let maxLength, length > maxLength {
            issue(
                key, "string_too_long", "String should have at most \(maxLength) character\(maxLength == 1 ? "" : "s")",
                .string(text),
                .object([("max_length", .int(maxLength))]))
        }
    }

    mutating func int(_ key: String, range: ClosedRange<Int>) -> Int? {
        guard let value = present(key, required: false) else { return nil }
        guard value.doubleValue != nil else {
            issue(key, "int_type", "Input should be a valid integer", value)
            return nil
        }
        guard let integer = value.intValue else {
            issue(key, "int_from_float", "Input should be a valid integer, got a number with a fractional part", value)
            return nil
        }
        if integer < range.lowerBound {
            issue(
                key, "greater_than_equal", "Input should be greater than or equal to \(range.lowerBound)", value,
                .object([("ge", .int(range.lowerBound))]))
        } else if integer > range.upperBound {
            issue(
                key, "less_than_equal", "Input should be less than or equal to \(range.upperBound)", value,
                .object([("le", .int(range.upperBound))]))
        }
        return integer
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = present(key, required: false) else { return nil }
        guard let flag = value.boolValue else {
            issue(key, "bool_type", "Input should be a valid boolean", value)
            return nil
        }
        return flag
    }

    mutating func dictionary(_ key: String) -> JSONObject? {
        guard let value = present(key, required: false) else { return nil }
        guard let members = value.objectValue else {
            issue(key, "dict_type", "Input should be a valid dictionary", value)
            return nil
        }
        return members
    }

    mutating func stringList(_ key: String, required: Bool = false, maxItems: Int, itemLength: ClosedRange<Int>? = nil)
        -> [String]?
    {
        guard let value = present(key, required: required) else { return nil }
        guard let elements = value.arrayValue else {
            issue(key, "list_type", "Input should be a valid list", value)
            return nil
        }
        if elements.count > maxItems {
            issue(
                key, "too_long", "List should have at most \(maxItems) items after validation, not \(elements.count)",
                value,
                .object([
                    ("field_type", .string("List")), ("max_length", .int(maxItems)),
                    ("actual_length", .int(elements.count)),
                ]))
            return nil
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let itemLocation = at(key) + [.int(index)]
            guard let text = element.stringValue else {
                issues.append(
                    ValidationIssue(
                        type: "string_type", location: itemLocation, message: "Input should be a valid string",
                        input: WireJSON(sorted: element)))
                continue
            }
            if let itemLength {
                var nested = FieldChecker([:], at: at(key))
                nested.checkLength(
                    String(index), text, minLength: itemLength.lowerBound, maxLength: itemLength.upperBound)
                issues += nested.issues.map { issue in
                    var issue = issue
                    issue.location = itemLocation
                    return issue
                }
            }
            names.append(text)
        }
        return names
    }
}
