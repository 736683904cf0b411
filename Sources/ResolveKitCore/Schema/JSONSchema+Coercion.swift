extension JSONSchema {
    /// Applies ``TypeResolver``'s tolerant coercions where the schema asks for a type: `"3"` → `3` for an integer,
    /// `"yes"` → `true` for a boolean, `2` → `"2"` for a string, recursively through properties, items and
    /// additional properties. Values that cannot be coerced are left as they are, for ``validate(_:)`` to report.
    public func coerce(_ value: JSONValue) -> JSONValue {
        if value.isNull { return value }
        switch type {
        case .string: return (try? TypeResolver.string(value)).map(JSONValue.string) ?? value
        case .boolean: return (try? TypeResolver.bool(value)).map(JSONValue.bool) ?? value
        case .integer:
            guard let integer = try? TypeResolver.integer(value, as: Int64.self) else { return value }
            return .number(Double(integer))
        case .number: return (try? TypeResolver.double(value)).map(JSONValue.number) ?? value
        case .array:
            guard case .array(let elements) = value, let items else { return value }
            return .array(elements.map(items.coerce))
        case .object:
            guard case .object(var members) = value else { return value }
            for (name, member) in members {
                if let schema = properties[name] {
                    members[name] = schema.coerce(member)
                } else if case .schema(let schema) = additionalProperties {
                    members[name] = schema.coerce(member)
                }
            }
            return .object(members)
        case .null, nil: return value
        }
    }
}
