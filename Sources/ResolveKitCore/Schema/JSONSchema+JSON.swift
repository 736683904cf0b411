extension JSONSchema {
    /// The schema as JSON, ready for `parameters_schema`. Only keywords that are set appear.
    public var jsonObject: JSONObject {
        var object: JSONObject = [:]
        if let type { object["type"] = .string(type.rawValue) }
        if let description { object["description"] = .string(description) }
        if type == .object || !properties.isEmpty {
            object["properties"] = .object(properties.mapValues { .object($0.jsonObject) })
        }
        if !required.isEmpty || type == .object { object["required"] = .array(required.map(JSONValue.string)) }
        switch additionalProperties {
        case .allowed(let allowed): object["additionalProperties"] = .bool(allowed)
        case .schema(let schema): object["additionalProperties"] = .object(schema.jsonObject)
        case nil: break
        }
        if let items { object["items"] = .object(items.jsonObject) }
        if let enumValues { object["enum"] = .array(enumValues) }
        if let defaultValue { object["default"] = defaultValue }
        if let minimum { object["minimum"] = .number(minimum) }
        if let maximum { object["maximum"] = .number(maximum) }
        if let minLength { object["minLength"] = .number(Double(minLength)) }
        if let maxLength { object["maxLength"] = .number(Double(maxLength)) }
        if let pattern { object["pattern"] = .string(pattern) }
        if let format { object["format"] = .string(format) }
        if let minItems { object["minItems"] = .number(Double(minItems)) }
        if let maxItems { object["maxItems"] = .number(Double(maxItems)) }
        if uniqueItems { object["uniqueItems"] = .bool(true) }
        if nullable { object["nullable"] = .bool(true) }
        return object
    }

    /// Reads a schema from JSON. `type` may be a name or an array of names including `"null"` (read as
    /// ``nullable``). Keywords outside the subset are ignored.
    /// - Throws: ``JSONSchema.ShapeError`` naming the keyword and its path when a keyword has the wrong shape.
    public init(jsonObject: JSONObject) throws(JSONSchema.ShapeError) {
        try self.init(jsonObject: jsonObject, path: "$")
    }

    private init(jsonObject object: JSONObject, path: String) throws(JSONSchema.ShapeError) {
        self.init()
        func fail(_ keyword: String, _ expected: String) -> JSONSchema.ShapeError {
            JSONSchema.ShapeError(path: path, keyword: keyword, message: "'\(keyword)' must be \(expected)")
        }
        switch object["type"] {
        case nil: break
        case .string(let name)?:
            guard let type = ValueType(rawValue: name) else { throw fail("type", "a JSON Schema type name") }
            self.type = type
        case .array(let names)?:
            let types = try names.map { (name) throws(JSONSchema.ShapeError) -> ValueType in
                guard let text = name.stringValue, let type = ValueType(rawValue: text) else {
                    throw fail("type", "a JSON Schema type name or an array of them")
                }
                return type
            }
            nullable = types.contains(.null)
            let nonNull = types.filter { $0 != .null }
            guard nonNull.count <= 1 else { throw fail("type", "at most one type besides null") }
            type = nonNull.first ?? (nullable ? .null : nil)
        default: throw fail("type", "a string or an array of strings")
        }
        description = try Self.string(object, "description", fail)
        if let value = object["properties"] {
            guard let members = value.objectValue else { throw fail("properties", "an object") }
            for (name, member) in members {
                guard let memberObject = member.objectValue else { throw fail("properties", "an object of schemas") }
                properties[name] = try JSONSchema(jsonObject: memberObject, path: "\(path).properties.\(name)")
            }
        }
        if let value = object["required"] {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count
            else { throw fail("required", "an array of strings") }
            required = names
        }
        switch object["additionalProperties"] {
        case nil: break
        case .bool(let allowed)?: additionalProperties = .allowed(allowed)
        case .object(let schema)?:
            additionalProperties = .schema(try JSONSchema(jsonObject: schema, path: "\(path).additionalProperties"))
        default: throw fail("additionalProperties", "a boolean or a schema")
        }
        if let value = object["items"] {
            guard let schema = value.objectValue else { throw fail("items", "a schema object") }
            items = try JSONSchema(jsonObject: schema, path: "\(path).items")
        }
        if let value = object["enum"] {
            guard let values = value.arrayValue else { throw fail("enum", "an array") }
            enumValues = values
        }
        defaultValue = object["default"]
        minimum = try Self.number(object, "minimum", fail)
        maximum = try Self.number(object, "maximum", fail)
        minLength = try Self.count(object, "minLength", fail)
        maxLength = try Self.count(object, "maxLength", fail)
        minItems = try Self.count(object, "minItems", fail)
        maxItems = try Self.count(object, "maxItems", fail)
        pattern = try Self.string(object, "pattern", fail)
        format = try Self.string(object, "format", fail)
        uniqueItems = object["uniqueItems"]?.boolValue ?? false
        nullable = nullable || (object["nullable"]?.boolValue ?? false)
    }

    private typealias Failure = (String, String) -> JSONSchema.ShapeError

    private static func string(_ object: JSONObject, _ key: String, _ fail: Failure) throws(JSONSchema.ShapeError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else { throw fail(key, "a string") }
        return text
    }

    private static func number(_ object: JSONObject, _ key: String, _ fail: Failure) throws(JSONSchema.ShapeError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = value.doubleValue else { throw fail(key, "a number") }
        return number
    }

    private static func count(_ object: JSONObject, _ key: String, _ fail: Failure) throws(JSONSchema.ShapeError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let count = value.intValue, count >= 0 else { throw fail(key, "a non-negative integer") }
        return count
    }
}

extension JSONSchema {
    /// A schema document that does not fit the supported subset.
    public struct ShapeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Where in the schema, e.g. `$.properties.room`.
        public var path: String
        /// The keyword at fault.
        public var keyword: String
        /// What is wrong.
        public var message: String

        /// Creates an error.
        public init(path: String, keyword: String, message: String) {
            self.path = path
            self.keyword = keyword
            self.message = message
        }

        /// `$.properties.room: 'type' must be …`.
        public var description: String { "\(path): \(message)" }
    }
}
