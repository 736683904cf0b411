import ResolveKitCore

/// Everything the renderer needs to know about one annotated function.
struct FunctionManifest: Sendable, Hashable {
    /// How `invoke` obtains one `perform` argument.
    enum Reading: Sendable, Hashable {
        /// `reader.required(…)`, then unwrapped by the `guard`.
        case required
        /// `reader.optional(…)`: absent or `null` is `nil`.
        case optional
        /// `reader.optional(…) ?? <expression>`.
        case defaulted(String)
        /// The invocation's ``ResolveKitFunctionContext`` is passed; not part of the schema.
        case context
    }

    /// One `perform` parameter.
    struct Parameter: Sendable, Hashable {
        /// The member name in the arguments object (the parameter's internal name).
        var key: String
        /// The argument label in the `perform` call; `nil` for `_`.
        var label: String?
        /// The type read from the arguments, as generated code spells it (`[String]`, `Outer.Mode`).
        var swiftType: String
        var reading: Reading
    }

    /// What `perform` returns.
    enum Result: Sendable, Hashable {
        /// `Void`: the result is `null`.
        case void
        /// `JSONValue`: returned as is.
        case json
        /// Anything else: encoded with `JSONValue(encoding:)`.
        case encodable
    }

    var name: String
    var description: String
    var schema: JSONSchema
    var requiresApproval: Bool
    var timeoutSeconds: Int?
    /// The struct's qualified Swift name.
    var typeName: String
    var access: AccessLevel
    var parameters: [Parameter]
    var result: Result
    /// The schema of the result, when `perform` returns a `Codable` struct declared in the scanned sources.
    var outputSchema: JSONSchema? = nil
    /// Where the function's name is written (the annotation's `name:` value).
    var nameLocation: SourceLocation
    /// Whether generated code names a Foundation type.
    var needsFoundation: Bool
}

/// A `ResolveKitArgument` conformance the generated file adds to a user type.
struct ArgumentConformance: Sendable, Hashable {
    /// How the type is read from JSON.
    enum Kind: Sendable, Hashable {
        /// An enum with a `String` or integer raw value.
        case rawValue
        /// A `Decodable` struct.
        case decodable
    }

    var typeName: String
    var kind: Kind
    var access: AccessLevel
}

/// The generator's intermediate result: the functions and conformances to render, in output order.
struct CodegenManifest: Sendable, Hashable {
    /// Sorted by function name.
    var functions: [FunctionManifest]
    /// Sorted by type name.
    var conformances: [ArgumentConformance]
}
