import ResolveKitCore

/// Turns the declaration model of every scanned file into the function manifest, reporting each problem the
/// backend or the compiler would reject with its position.
struct ManifestBuilder {
    let index: TypeIndex
    var resolver: ArgumentTypeResolver
    var diagnostics: [Diagnostic] = []
    var functions: [FunctionManifest] = []

    /// What one core built: its functions sorted by name, its diagnostics and the conformances its types need.
    private struct Share: Sendable {
        var functions: [FunctionManifest]
        var diagnostics: [Diagnostic]
        var conformances: [String: ArgumentConformance]
    }

    /// Builds the manifest of `files`; the diagnostics are sorted by position.
    ///
    /// The functions are built on every core, each core's share (consecutive files) by its own builder: a type
    /// resolves to the same schema and the same diagnostics wherever it is used, so the shares' results joined are
    /// what one builder would produce. Each share sorts its own functions, so joining them costs a merge of sorted
    /// runs.
    static func build(_ files: [SourceFileModel]) -> (CodegenManifest, [Diagnostic]) {
        let index = TypeIndex(files: files)
        var shares = ParallelMap.map(ParallelMap.shares(of: files)) { share in
            var builder = ManifestBuilder(index: index)
            // By index here and below: a declaration is read where it is stored, not copied out first (a copy costs a
            // reference count per member list).
            for file in share.indices {
                for declaration in share[file].declarations.indices {
                    builder.functions(in: share[file].declarations[declaration], scope: [])
                }
            }
            builder.functions.sort(by: isOrdered)
            return Share(
                functions: builder.functions, diagnostics: builder.diagnostics + builder.resolver.diagnostics,
                conformances: builder.resolver.conformances)
        }
        var builder = ManifestBuilder(index: index)
        builder.diagnostics = files.flatMap(\.diagnostics)
        builder.functions.reserveCapacity(shares.reduce(0) { $0 + $1.functions.count })
        // The functions are moved out of the shares, last to first, so none is copied (a copy costs a reference
        // count per field, and the shares freeing theirs as many again); reversed, they are the shares' functions
        // one after the other.
        for share in shares.indices.reversed() {
            while let function = shares[share].functions.popLast() { builder.functions.append(function) }
        }
        builder.functions.reverse()
        for share in shares {
            builder.diagnostics += share.diagnostics
            builder.resolver.conformances.merge(share.conformances) { first, _ in first }
        }
        builder.functions.sort(by: isOrdered)
        builder.checkDuplicateNames()
        let manifest = CodegenManifest(
            functions: builder.functions,
            conformances: builder.resolver.conformances.values.sorted { $0.typeName < $1.typeName })
        let diagnostics = builder.diagnostics.sorted { ($0.location, $0.message) < ($1.location, $1.message) }
        return (manifest, diagnostics)
    }

    init(index: TypeIndex) {
        self.index = index
        self.resolver = ArgumentTypeResolver(index: index)
    }

    /// The manifest's order: by function name, then type name.
    private static func isOrdered(_ lhs: FunctionManifest, _ rhs: FunctionManifest) -> Bool {
        lhs.name != rhs.name ? lhs.name < rhs.name : lhs.typeName < rhs.typeName
    }

    /// Builds the function of every annotated declaration in `declaration` (itself included), depth first.
    private mutating func functions(in declaration: TypeDeclaration, scope: [String]) {
        // Most declarations are neither annotated nor hold types: their scope is not worth building.
        guard declaration.annotation != nil || !declaration.nested.isEmpty else { return }
        let memberScope =
            declaration.kind == .extension
            ? declaration.name.split(separator: ".").map(String.init) : scope + [declaration.name]
        if let annotation = declaration.annotation {
            function(declaration, annotation: annotation, scope: memberScope)
        }
        for nested in declaration.nested.indices { functions(in: declaration.nested[nested], scope: memberScope) }
    }

    /// Builds the function of the annotated `declaration`, whose qualified name is `scope` joined with dots.
    private mutating func function(_ declaration: TypeDeclaration, annotation: Annotation, scope: [String]) {
        let qualifiedName = scope.joined(separator: ".")
        guard declaration.kind == .struct else {
            let message =
                declaration.kind == .extension
                ? "@ResolveKit cannot annotate an extension; put it above the struct declaration"
                : "@ResolveKit can only annotate a struct, not \(declaration.kind.article) \(declaration.kind.rawValue)"
            diagnostics.append(.error(message, at: annotation.location))
            return
        }
        let arguments = AnnotationArguments(annotation)
        diagnostics += arguments.diagnostics
        let name = declaration.name
        let access = index.effectiveAccess(of: qualifiedName)
        var isValid = !arguments.diagnostics.contains { $0.severity == .error }
        func fail(_ message: String, at location: SourceLocation) {
            diagnostics.append(.error(message, at: location))
            isValid = false
        }
        if !declaration.genericParameters.isEmpty {
            fail("function struct '\(name)' cannot be generic", at: declaration.location)
        }
        if !index.conforms(qualifiedName, to: ["ResolveKitFunction"]) {
            fail("struct '\(name)' must conform to ResolveKitFunction", at: declaration.location)
        }
        if access < .internal {
            fail(
                "struct '\(name)' is \(access.keyword); the generated file cannot extend it, so make it internal or wider",
                at: declaration.location)
        }
        // The struct's own perform methods, then its extensions': read by index, so that only the first is copied.
        var firstPerform: FunctionDeclaration?
        var secondPerformLocation: SourceLocation?
        func findPerforms(in functions: [FunctionDeclaration]) {
            for index in functions.indices where functions[index].name == "perform" && !functions[index].isStatic {
                if firstPerform == nil {
                    firstPerform = functions[index]
                } else if secondPerformLocation == nil {
                    secondPerformLocation = functions[index].location
                }
            }
        }
        findPerforms(in: declaration.functions)
        if let extensionFunctions = index.extensionFunctions[qualifiedName] { findPerforms(in: extensionFunctions) }
        guard let perform = firstPerform else {
            return fail("struct '\(name)' has no perform(...) method", at: declaration.location)
        }
        if let secondPerformLocation {
            return fail("struct '\(name)' has more than one perform(...) method", at: secondPerformLocation)
        }
        if !perform.isAsync || !perform.isThrowing {
            fail("perform(...) must be 'async throws'", at: perform.location)
        }
        if perform.isMutating { fail("perform(...) must not be mutating", at: perform.location) }
        let documentation = declaration.documentation?.documentation ?? Documentation()
        let generics = Set(declaration.genericParameters + perform.genericParameters)
        var schema = JSONSchema(type: .object)
        var parameters: [FunctionManifest.Parameter] = []
        parameters.reserveCapacity(perform.parameters.count)
        var needsFoundation = false
        // Names are resolved in the scope the qualified name splits into: `scope` itself, unless a name in it is empty
        // (a declaration without one), which splitting drops.
        let use = ArgumentTypeResolver.Use(
            scope: scope.contains(where: \.isEmpty) ? qualifiedName.split(separator: ".").map(String.init) : scope,
            generics: generics)
        let hiddenMembers = Self.hiddenMembers(of: declaration)
        schema.properties.reserveCapacity(perform.parameters.count)
        // By index: a parameter is read where it is stored, not copied out first (a reference count per field, for
        // every parameter of every function).
        let performParameters = perform.parameters
        for parameterIndex in performParameters.indices {
            if let hidden = Self.privateMember(
                usedBy: performParameters[parameterIndex], in: declaration, hidden: hiddenMembers)
                ?? hiddenMemberOfAnotherType(
                    usedBy: performParameters[parameterIndex], in: declaration, scope: use.scope)
            {
                let parameter = performParameters[parameterIndex]
                fail(
                    "the default value of '\(parameter.name)' uses '\(hidden.name)', which is \(hidden.access.keyword) to its "
                        + "file; the generated code is in another file: make '\(hidden.name)' internal",
                    at: parameter.defaultValue?.tokens.first.map {
                        SourceLocation(file: parameter.location.file, line: $0.line, column: $0.column)
                    }
                        ?? parameter.location)
                continue
            }
            guard
                let (manifest, property, isRequired, foundation) = self.parameter(
                    at: parameterIndex, of: performParameters, documentation, use)
            else {
                isValid = false
                continue
            }
            parameters.append(manifest)
            needsFoundation = needsFoundation || foundation
            guard let property else { continue }
            schema.properties[performParameters[parameterIndex].name] = property
            if isRequired { schema.required.append(performParameters[parameterIndex].name) }
        }
        let description = arguments.description ?? documentation.summary ?? ""
        if description.isEmpty {
            fail(
                "struct '\(name)' needs a description: add a doc comment summary or description: to @ResolveKit",
                at: declaration.location)
        } else if description.count > 1000 {
            fail(
                "description is \(description.count) characters; the backend accepts at most 1000",
                at: arguments.descriptionLocation ?? declaration.location)
        }
        guard isValid, let functionName = arguments.name else { return }
        let result = Self.result(of: perform)
        let outputSchema = result == .encodable ? outputSchema(of: perform, at: use) : nil
        functions.append(
            FunctionManifest(
                name: functionName, description: description, schema: schema,
                requiresApproval: arguments.requiresApproval,
                timeoutSeconds: ApprovalTime.registered(
                    timeout: arguments.timeout, requiresApproval: arguments.requiresApproval),
                typeName: qualifiedName, access: access, parameters: parameters, result: result,
                outputSchema: outputSchema,
                nameLocation: arguments.nameLocation, needsFoundation: needsFoundation))
    }

    /// The schema of a result type that is a `Codable` struct of the scanned sources, or `nil`. A result type that
    /// cannot be described is no error, only no output schema: the problems resolving it reports are dropped.
    /// Resolving it leaves the resolver as it was but for its memo of types resolved without a problem, which
    /// resolve the same wherever they are used; and a type read as a struct member (not `direct`) adds no
    /// conformance.
    private mutating func outputSchema(of perform: FunctionDeclaration, at use: ArgumentTypeResolver.Use)
        -> JSONSchema?
    {
        guard let type = perform.returnType else { return nil }
        let reported = resolver.diagnostics.count
        defer { resolver.diagnostics.removeSubrange(reported...) }
        var resultUse = use
        resultUse.direct = false
        guard let resolved = resolver.resolve(type, at: resultUse), resolver.diagnostics.count == reported,
            resolved.schema.type == .object, !resolved.schema.nullable
        else { return nil }
        return resolved.schema
    }

    private static func result(of perform: FunctionDeclaration) -> FunctionManifest.Result {
        guard let type = perform.returnType, !type.isVoid else { return .void }
        if type.plainLastName == "JSONValue" { return .json }
        return .encodable
    }

    /// Reports every function whose name an earlier-declared one already has; `functions` is sorted by name, so
    /// functions of one name are neighbours.
    private mutating func checkDuplicateNames() {
        var start = functions.startIndex
        while start < functions.endIndex {
            let name = functions[start].name
            var end = start + 1
            while end < functions.endIndex, functions[end].name == name { end += 1 }
            if end - start > 1 {
                let group = functions[start..<end]
                let first = group.indices.min { group[$0].nameLocation < group[$1].nameLocation }!
                for index in group.indices where index != first {
                    diagnostics.append(
                        .error(
                            "duplicate function name '\(name)'; it is also declared at \(group[first].nameLocation)",
                            at: group[index].nameLocation))
                }
            }
            start = end
        }
    }
}

extension TypeDeclaration.Kind {
    /// `a` or `an`, for messages.
    var article: String { [.enum, .actor, .extension].contains(self) ? "an" : "a" }
}
