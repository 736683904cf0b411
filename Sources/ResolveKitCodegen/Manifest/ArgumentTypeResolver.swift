import ResolveKitCore

/// Maps parameter types to ``ArgumentType``s, resolving user enums and structs declared in the scanned sources,
/// and reports every type that cannot be a tool argument at its exact position.
struct ArgumentTypeResolver {
    /// Where a type is used.
    struct Use: Sendable {
        /// The scope names are resolved in (the enclosing types' path).
        var scope: [String]
        /// Generic parameter names visible at the use.
        var generics: Set<String> = []
        /// Structs being expanded, to catch a type that contains itself.
        var stack: [String] = []
        /// Whether generated code reads the type through `ResolveKitArgument` (not as a member of a struct).
        var direct = true
    }

    let index: TypeIndex
    var diagnostics: [Diagnostic] = []
    /// The conformances generated code must add, by type name.
    var conformances: [String: ArgumentConformance] = [:]
    /// User types resolved without a problem but out of sight of generated code, by qualified name: a later use
    /// reports that again without resolving them again. Types that reported a problem are resolved again at every
    /// use, so each use still reports it.
    var resolvedUserTypes: [String: ArgumentType] = [:]
    /// User types that resolved without a problem and are visible to generated code: most types are used by many
    /// functions, their schema does not depend on where they are used, and a later use of one costs a dictionary
    /// lookup.
    var acceptedUserTypes: [String: AcceptedUserType] = [:]

    /// A user type that resolved without a problem and is visible to generated code. A class: the memo's values
    /// are then a reference each, cheap to look up and to move when the table grows (a type is a few hundred
    /// bytes), and the first direct use marks the conformance recorded in place.
    final class AcceptedUserType {
        let type: ArgumentType
        /// The conformance generated code adds to the type; `nil` when the type declares it.
        let conformance: ArgumentConformance?
        /// Whether ``conformance`` is in ``ArgumentTypeResolver/conformances`` already.
        var isRecorded: Bool

        init(type: ArgumentType, conformance: ArgumentConformance?, isRecorded: Bool) {
            self.type = type
            self.conformance = conformance
            self.isRecorded = isRecorded
        }
    }

    init(index: TypeIndex) {
        self.index = index
    }

    /// Resolves `type` at `use`; `nil` after reporting why it cannot be an argument.
    mutating func resolve(_ type: TypeSyntax, at use: Use) -> ArgumentType? {
        switch type {
        case .optional(let wrapped, let location):
            if case .optional = wrapped {
                return fail("unsupported type '\(type)': nested optionals cannot be tool arguments", at: location)
            }
            guard var inner = resolve(wrapped, at: use) else { return nil }
            inner.schema.nullable = true
            return ArgumentType(
                schema: inner.schema, swiftType: inner.swiftType + "?", shape: .optional(inner.shape),
                needsFoundation: inner.needsFoundation)
        case .array(let element, _):
            return resolve(element, at: use).map(Self.array)
        case .dictionary(let key, let value, let location):
            return dictionary(key: key, value: value, whole: type, location: location, at: use)
        case .tuple(_, let location):
            return fail(
                "unsupported type '\(type)': a tuple cannot be a tool argument; use a Codable struct", at: location)
        case .unsupported(let text, let location):
            return fail(
                "unsupported type '\(text)': closures, existentials and metatypes cannot be tool arguments",
                at: location)
        case .name(let name, let location):
            return self.name(name, whole: type, location: location, at: use)
        case .named(let components, let location):
            return named(components, whole: type, location: location, at: use)
        }
    }

    /// A one-component name without generic arguments: what ``named(_:whole:location:at:)`` does with one, without
    /// a list of components.
    private mutating func name(_ name: String, whole: TypeSyntax, location: SourceLocation, at use: Use)
        -> ArgumentType?
    {
        if let symbol = index.lookup(CollectionOfOne(name), from: use.scope) {
            return resolve(symbol, whole: whole, location: location, at: use)
        }
        return standardOrUnknown(name, whole: whole, location: location, at: use)
    }

    private mutating func named(
        _ components: [TypeSyntax.Component], whole: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        var components = components
        if components.count > 1, ["Swift", "Foundation"].contains(components[0].name),
            index.lookup([components[0].name], from: use.scope) == nil
        {
            components.removeFirst()
        }
        if components.count == 1, !components[0].arguments.isEmpty {
            return generic(components[0], whole: whole, location: location, at: use)
        }
        let names = components.lazy.map(\.name)
        if components.allSatisfy({ $0.arguments.isEmpty }), let symbol = index.lookup(names, from: use.scope) {
            return resolve(symbol, whole: whole, location: location, at: use)
        }
        guard components.count == 1 else { return unknown(whole, location: location) }
        return standardOrUnknown(components[0].name, whole: whole, location: location, at: use)
    }

    /// Resolves what a name looked up to.
    private mutating func resolve(
        _ symbol: TypeIndex.Symbol, whole: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        switch symbol {
        case .alias(let alias, let aliasScope):
            var aliasUse = use
            aliasUse.scope = aliasScope
            aliasUse.generics = []
            return resolve(alias.target, at: aliasUse)
        case .type(let entry):
            return userType(entry, written: whole, location: location, at: use)
        }
    }

    /// A one-component name that is no symbol of the scanned sources: a standard type, or a problem.
    private mutating func standardOrUnknown(
        _ name: String, whole: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        if let (schema, foundation) = StandardTypes.schema(for: name) {
            return ArgumentType(schema: schema, swiftType: name, shape: .scalar, needsFoundation: foundation)
        }
        if use.generics.contains(name) {
            return fail("unsupported type '\(whole)': a generic parameter cannot be a tool argument", at: location)
        }
        return unknown(whole, location: location)
    }

    private mutating func unknown(_ whole: TypeSyntax, location: SourceLocation) -> ArgumentType? {
        fail(
            "unsupported type '\(whole)': it is neither a supported standard type nor declared in the scanned sources",
            at: location)
    }

    mutating func fail(_ message: String, at location: SourceLocation) -> ArgumentType? {
        diagnostics.append(.error(message, at: location))
        return nil
    }

    static func array(_ element: ArgumentType) -> ArgumentType {
        ArgumentType(
            schema: .array(of: element.schema), swiftType: "[\(element.swiftType)]", shape: .array(element.shape),
            needsFoundation: element.needsFoundation)
    }

    private mutating func dictionary(
        key: TypeSyntax, value: TypeSyntax, whole: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        guard key.plainLastName == "String" else {
            return fail("unsupported type '\(whole)': dictionary keys must be String", at: location)
        }
        guard let value = resolve(value, at: use) else { return nil }
        var schema = JSONSchema(type: .object)
        schema.additionalProperties = .schema(value.schema)
        return ArgumentType(
            schema: schema, swiftType: "[String: \(value.swiftType)]", shape: .dictionary(value.shape),
            needsFoundation: value.needsFoundation)
    }

    private mutating func generic(
        _ component: TypeSyntax.Component, whole: TypeSyntax, location: SourceLocation, at use: Use
    ) -> ArgumentType? {
        let arguments = component.arguments
        switch (component.name, arguments.count) {
        case ("Array", 1):
            return resolve(arguments[0], at: use).map(Self.array)
        case ("Optional", 1):
            return resolve(.optional(arguments[0], location), at: use)
        case ("Set", 1):
            guard let element = resolve(arguments[0], at: use) else { return nil }
            var schema = JSONSchema.array(of: element.schema)
            schema.uniqueItems = true
            return ArgumentType(
                schema: schema, swiftType: "Set<\(element.swiftType)>", shape: .array(element.shape),
                needsFoundation: element.needsFoundation)
        case ("Dictionary", 2):
            return dictionary(key: arguments[0], value: arguments[1], whole: whole, location: location, at: use)
        default:
            return fail(
                "unsupported type '\(whole)': only Array, Set, Dictionary and Optional generic types are supported",
                at: location)
        }
    }
}
