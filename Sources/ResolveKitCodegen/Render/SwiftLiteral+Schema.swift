import ResolveKitCore

extension SwiftLiteral {
    /// Writes the members of `schema.jsonObject` exactly as ``writeMembers(_:to:)`` would, without building the
    /// object: the keywords are visited in the sorted order of their names, so nothing is sorted or copied.
    static func writeMembers(of schema: JSONSchema, to writer: inout SwiftWriter) {
        switch schema.additionalProperties {
        case .allowed(let allowed): writeMember("additionalProperties", .bool(allowed), to: &writer)
        case .schema(let inner): writeMember("additionalProperties", schema: inner, to: &writer)
        case nil: break
        }
        if let value = schema.defaultValue { writeMember("default", value, to: &writer) }
        if let description = schema.description { writeMember("description", .string(description), to: &writer) }
        if let values = schema.enumValues { writeMember("enum", .array(values), to: &writer) }
        if let format = schema.format { writeMember("format", .string(format), to: &writer) }
        if let items = schema.items { writeMember("items", schema: items, to: &writer) }
        if let count = schema.maxItems { writeMember("maxItems", .number(Double(count)), to: &writer) }
        if let count = schema.maxLength { writeMember("maxLength", .number(Double(count)), to: &writer) }
        if let bound = schema.maximum { writeMember("maximum", .number(bound), to: &writer) }
        if let count = schema.minItems { writeMember("minItems", .number(Double(count)), to: &writer) }
        if let count = schema.minLength { writeMember("minLength", .number(Double(count)), to: &writer) }
        if let bound = schema.minimum { writeMember("minimum", .number(bound), to: &writer) }
        if schema.nullable { writeMember("nullable", .bool(true), to: &writer) }
        if let pattern = schema.pattern { writeMember("pattern", .string(pattern), to: &writer) }
        if schema.type == .object || !schema.properties.isEmpty {
            writeObjectHeader("properties", isEmpty: schema.properties.isEmpty, to: &writer) { writer in
                writeProperties(schema.properties, to: &writer)
            }
        }
        if !schema.required.isEmpty || schema.type == .object {
            writeRequired(schema.required, to: &writer)
        }
        if let type = schema.type { writeMember("type", .string(type.rawValue), to: &writer) }
        if schema.uniqueItems { writeMember("uniqueItems", .bool(true), to: &writer) }
    }

    /// Writes each property as a member, in the order of the names. The dictionary's indices are sorted in a
    /// temporary buffer, so neither a list nor a copy of a property is made.
    private static func writeProperties(_ properties: [String: JSONSchema], to writer: inout SwiftWriter) {
        withUnsafeTemporaryAllocation(of: [String: JSONSchema].Index.self, capacity: properties.count) { order in
            _ = order.initialize(from: properties.indices)
            defer { order.deinitialize() }
            // Insertion sort: an object has a few properties, and the names are distinct.
            for next in order.indices.dropFirst() {
                let index = order[next]
                var slot = next
                while slot > 0, properties.keys[index] < properties.keys[order[slot - 1]] {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = index
            }
            for index in order {
                writeMember(properties.keys[index], schema: properties.values[index], to: &writer)
            }
        }
    }

    /// `"required": .array([.string("a"), …]),`, as ``write(_:key:to:)`` writes the array of names, without
    /// building it.
    private static func writeRequired(_ names: [String], to writer: inout SwiftWriter) {
        writer.startLine()
        writeString("required", to: &writer)
        writer.write(": .array([")
        for index in names.indices {
            if index > 0 { writer.write(", ") }
            writer.write(".string(")
            writeString(names[index], to: &writer)
            writer.write(byte: UInt8(ascii: ")"))
        }
        writer.write("]),")
        writer.endLine()
    }

    private static func writeMember(_ key: String, _ value: JSONValue, to writer: inout SwiftWriter) {
        write(value, key: key, to: &writer)
    }

    /// `"key": .object([ … ]),` for a nested schema.
    private static func writeMember(_ key: String, schema: JSONSchema, to writer: inout SwiftWriter) {
        writeObjectHeader(key, isEmpty: !hasMembers(schema), to: &writer) { writeMembers(of: schema, to: &$0) }
    }

    /// `"key": .object([:]),` when empty, else the header line, the members one level deeper and `]),`.
    private static func writeObjectHeader(
        _ key: String, isEmpty: Bool, to writer: inout SwiftWriter, _ members: (inout SwiftWriter) -> Void
    ) {
        writer.startLine()
        writeString(key, to: &writer)
        if isEmpty {
            writer.write(": .object([:]),")
            writer.endLine()
            return
        }
        writer.write(": .object([")
        writer.endLine()
        writer.indented(footer: "]),", members)
    }

    /// Whether `schema.jsonObject` would have any member.
    private static func hasMembers(_ schema: JSONSchema) -> Bool {
        schema.type != nil || schema.description != nil || !schema.properties.isEmpty || !schema.required.isEmpty
            || schema.additionalProperties != nil || schema.items != nil || schema.enumValues != nil
            || schema.defaultValue != nil || schema.minimum != nil || schema.maximum != nil || schema.minLength != nil
            || schema.maxLength != nil || schema.pattern != nil || schema.format != nil || schema.minItems != nil
            || schema.maxItems != nil || schema.uniqueItems || schema.nullable
    }
}
