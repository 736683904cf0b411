import ResolveKitCore

extension ArgumentTypeResolver {
    /// Resolves an enum or struct declared in the scanned sources and records the conformance it needs.
    mutating func userType(
        _ entry: TypeIndex.Entry, written: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        let name = entry.qualifiedName
        if let known = acceptedUserTypes[name] {
            // The conformance is the same at every use: recorded once, at the first direct use.
            if use.direct, !known.isRecorded, let conformance = known.conformance {
                conformances[name] = conformance
                known.isRecorded = true
            }
            return known.type
        }
        let result: ArgumentType?
        let kind: ArgumentConformance.Kind
        let reported = diagnostics.count
        switch entry.kind {
        case .enum:
            result = resolvedUserTypes[name] ?? enumeration(entry, written: written, location: location)
            kind = .rawValue
        case .struct:
            result = resolvedUserTypes[name] ?? structure(entry, written: written, location: location, at: use)
            kind = .decodable
        case .class:
            return fail(
                "unsupported type '\(written)': a class cannot be a tool argument; use a Codable struct", at: location)
        case .actor:
            return fail(
                "unsupported type '\(written)': an actor cannot be a tool argument; use a Codable struct", at: location)
        case .protocol, .extension:
            return fail("unsupported type '\(written)': a protocol cannot be a tool argument", at: location)
        }
        guard let result else { return nil }
        let resolvedCleanly = diagnostics.count == reported
        let access = index.effectiveAccess(of: name)
        guard access >= .internal else {
            // Only a type that is not accepted is looked up here again.
            if resolvedCleanly { resolvedUserTypes[name] = result }
            return fail(
                "type '\(name)' is \(access.keyword); the generated file cannot use it, so make it internal or wider",
                at: location)
        }
        let conformance =
            index.conforms(name, to: ["ResolveKitArgument"])
            ? nil : ArgumentConformance(typeName: name, kind: kind, access: access)
        if use.direct, let conformance { conformances[name] = conformance }
        if resolvedCleanly {
            acceptedUserTypes[name] = AcceptedUserType(
                type: result, conformance: conformance, isRecorded: use.direct || conformance == nil)
        }
        return result
    }

    private mutating func enumeration(
        _ entry: TypeIndex.Entry, written: TypeSyntax, location: SourceLocation
    ) -> ArgumentType? {
        let declaration = entry.declaration
        let rawType = declaration.inheritance.first.map { $0.hasPrefix("Swift.") ? String($0.dropFirst(6)) : $0 }
        let isString = rawType == "String"
        guard isString || rawType.flatMap(StandardTypes.integerRange) != nil, declaration.genericParameters.isEmpty,
            !declaration.cases.contains(where: \.hasAssociatedValues)
        else {
            return fail(
                "unsupported type '\(written)': an enum argument needs a String or integer raw value, "
                    + "as in 'enum \(declaration.name): String'",
                at: location)
        }
        var values: [JSONValue] = []
        var byName: [String: JSONValue] = [:]
        var next = 0
        for enumCase in declaration.cases {
            let raw = enumCase.rawValue
            let value: JSONValue
            if isString {
                guard raw.isEmpty || (raw.count == 1 && raw[0].stringValue != nil) else {
                    return fail("raw value of case '\(enumCase.name)' must be a string literal", at: enumCase.location)
                }
                value = .string(raw.first?.stringValue ?? enumCase.name)
            } else {
                if !raw.isEmpty {
                    let text = raw.count == 1 ? raw[0].text : raw.map(\.text).joined()
                    guard let number = Int(text.replacingUnderscores) else {
                        return fail(
                            "raw value of case '\(enumCase.name)' must be an integer literal", at: enumCase.location)
                    }
                    next = number
                }
                value = .number(Double(next))
                next += 1
            }
            values.append(value)
            byName[enumCase.name] = value
        }
        let summary = declaration.documentation?.documentation.summary
        let schema = JSONSchema(type: isString ? .string : .integer, description: summary, enumValues: values)
        return ArgumentType(schema: schema, swiftType: entry.qualifiedName, shape: .enumeration(byName))
    }

    private mutating func structure(
        _ entry: TypeIndex.Entry, written: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        let declaration = entry.declaration
        let name = entry.qualifiedName
        guard declaration.genericParameters.isEmpty else {
            return fail("unsupported type '\(written)': a generic struct cannot be a tool argument", at: location)
        }
        if use.stack.contains(name) {
            let path = (use.stack + [name]).joined(separator: " → ")
            return fail(
                "unsupported type '\(written)': it contains itself (\(path)); a recursive type has no finite schema",
                at: location)
        }
        guard index.conforms(name, to: ["Decodable", "Codable"]) else {
            return fail("struct '\(name)' must conform to Decodable (or Codable) to be a tool argument", at: location)
        }
        let codingKeys = declaration.nested.first { $0.kind == .enum && $0.name == "CodingKeys" }.map { keys in
            Dictionary(keys.cases.map { ($0.name, $0.rawValue.first?.stringValue ?? $0.name) }) { first, _ in first }
        }
        var schema = JSONSchema(type: .object, description: declaration.documentation?.documentation.summary)
        let memberUse = Use(scope: entry.scope + [declaration.name], stack: use.stack + [name], direct: false)
        for property in declaration.properties
        where !property.isStatic && !property.isComputed && !property.isLazy
            && !(property.isLet && property.hasInitializer)
        {
            guard let key = codingKeys.map({ $0[property.name] }) ?? property.name else { continue }
            guard let type = property.type else {
                diagnostics.append(
                    .error(
                        "property '\(property.name)' of '\(name)' needs an explicit type to be described in the schema",
                        at: property.location))
                continue
            }
            guard let (resolved, isOptional) = resolveMember(type, at: memberUse) else { continue }
            var member = resolved
            let documentation = property.documentation?.documentation
            if let summary = documentation?.summary { member.schema.description = summary }
            diagnostics += SchemaTags.apply(documentation?.tags ?? [], to: &member.schema)
            schema.properties[key] = member.schema
            if !isOptional { schema.required.append(key) }
        }
        return ArgumentType(schema: schema, swiftType: name, shape: .object)
    }
}

extension ArgumentTypeResolver {
    /// Resolves a parameter or property type: `T?` is `T`, not required; `T??` is an error.
    mutating func resolveMember(_ type: TypeSyntax, at use: Use) -> (ArgumentType, isOptional: Bool)? {
        let (base, isOptional) = type.unwrappingOptional
        if isOptional, base.unwrappingOptional.1 {
            _ = fail("unsupported type '\(type)': nested optionals cannot be tool arguments", at: type.location)
            return nil
        }
        return resolve(base, at: use).map { ($0, isOptional) }
    }
}

extension TypeSyntax {
    /// The wrapped type of `T?` and whether it was optional.
    var unwrappingOptional: (TypeSyntax, Bool) {
        if case .optional(let wrapped, _) = self { return (wrapped, true) }
        if case .named(let components, _) = self, components.count == 1, components[0].name == "Optional",
            components[0].arguments.count == 1
        {
            return (components[0].arguments[0], true)
        }
        return (self, false)
    }
}
