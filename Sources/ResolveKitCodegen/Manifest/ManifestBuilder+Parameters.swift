import ResolveKitCore

extension ManifestBuilder {
    /// A parameter's reading, its schema (none for the context), whether it is required and whether it names a
    /// Foundation type; `nil` after reporting why it cannot be an argument.
    mutating func parameter(
        _ parameter: ParameterDeclaration, _ documentation: Documentation, _ use: ArgumentTypeResolver.Use
    ) -> (FunctionManifest.Parameter, JSONSchema?, Bool, Bool)? {
        if parameter.isVariadic {
            diagnostics.append(
                .error("variadic parameter '\(parameter.name)' is not supported; use an array", at: parameter.location))
            return nil
        }
        if let specifier = parameter.specifier, specifier == "inout" {
            diagnostics.append(.error("inout parameter '\(parameter.name)' is not supported", at: parameter.location))
            return nil
        }
        if parameter.type.lastName == "ResolveKitFunctionContext" {
            let manifest = FunctionManifest.Parameter(
                key: parameter.name, label: parameter.label, swiftType: "ResolveKitFunctionContext", reading: .context)
            return (manifest, nil, false, false)
        }
        guard let (resolved, isOptional) = resolver.resolveMember(parameter.type, at: use) else { return nil }
        var type = resolved
        let parameterDocumentation =
            documentation.parameters[parameter.name]
            ?? parameter.label.flatMap { documentation.parameters[$0] }
        if let text = parameterDocumentation?.text, !text.isEmpty { type.schema.description = text }
        diagnostics += SchemaTags.apply(parameterDocumentation?.tags ?? [], to: &type.schema)
        var reading = isOptional ? FunctionManifest.Reading.optional : .required
        if let defaultValue = parameter.defaultValue, defaultValue.text != "nil" {
            reading = .defaulted(defaultValue.text)
            type.schema.defaultValue = DefaultValueEvaluator.value(of: defaultValue.tokens, as: type)
        } else if parameter.defaultValue != nil {
            reading = .optional
        }
        let manifest = FunctionManifest.Parameter(
            key: parameter.name, label: parameter.label, swiftType: type.swiftType, reading: reading)
        return (manifest, type.schema, reading == .required, type.needsFoundation)
    }
}
