import ResolveKitCore

extension ManifestBuilder {
    /// A parameter's reading, its schema (none for the context), whether it is required and whether it names a
    /// Foundation type; `nil` after reporting why it cannot be an argument.
    ///
    /// The parameter is the one at `index` of `parameters`, read where it is stored: passed on its own, it was
    /// copied (a reference count per field) for every parameter of every function.
    mutating func parameter(
        at index: Int, of parameters: [ParameterDeclaration], _ documentation: Documentation,
        _ use: ArgumentTypeResolver.Use
    ) -> (FunctionManifest.Parameter, JSONSchema?, Bool, Bool)? {
        if parameters[index].isVariadic {
            diagnostics.append(
                .error(
                    "variadic parameter '\(parameters[index].name)' is not supported; use an array",
                    at: parameters[index].location))
            return nil
        }
        if let specifier = parameters[index].specifier, specifier == "inout" {
            diagnostics.append(
                .error("inout parameter '\(parameters[index].name)' is not supported", at: parameters[index].location))
            return nil
        }
        if parameters[index].type.lastName == "ResolveKitFunctionContext" {
            let manifest = FunctionManifest.Parameter(
                key: parameters[index].name, label: parameters[index].label, swiftType: "ResolveKitFunctionContext",
                reading: .context)
            return (manifest, nil, false, false)
        }
        guard let (resolved, isOptional) = resolver.resolveMember(parameters[index].type, at: use) else { return nil }
        var type = resolved
        let parameterDocumentation =
            documentation.parameters[parameters[index].name]
            ?? parameters[index].label.flatMap { documentation.parameters[$0] }
        if let text = parameterDocumentation?.text, !text.isEmpty { type.schema.description = text }
        diagnostics += SchemaTags.apply(parameterDocumentation?.tags ?? [], to: &type.schema)
        var reading = isOptional ? FunctionManifest.Reading.optional : .required
        if let defaultValue = parameters[index].defaultValue, defaultValue.text != "nil" {
            reading = .defaulted(defaultValue.text)
            type.schema.defaultValue = DefaultValueEvaluator.value(of: defaultValue.tokens, as: type)
        } else if parameters[index].defaultValue != nil {
            reading = .optional
        }
        let manifest = FunctionManifest.Parameter(
            key: parameters[index].name, label: parameters[index].label, swiftType: type.swiftType, reading: reading)
        return (manifest, type.schema, reading == .required, type.needsFoundation)
    }
}
