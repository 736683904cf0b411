/// A type as written in source, parsed enough to map it to a JSON Schema.
///
/// Only the cases that hold a type are boxed: most types are plain names, and a name needs no box of its own. A
/// name of one component without generic arguments (`String`, `Payload`) is ``name(_:_:)``, never a one-component
/// ``named(_:_:)``: it needs no list of its own either.
enum TypeSyntax: Sendable, Hashable, CustomStringConvertible {
    /// One component of a dotted type name: `Dictionary<String, Int>` or `Outer.Inner`.
    struct Component: Sendable, Hashable {
        /// The name.
        var name: String
        /// Generic arguments, if any.
        var arguments: [TypeSyntax]
    }

    /// `Name`: one component, no generic arguments.
    case name(String, SourceLocation)
    /// `Outer.Inner`, `Array<Element>`: more than one component, or generic arguments.
    case named([Component], SourceLocation)
    /// `T?` or `T!`.
    indirect case optional(TypeSyntax, SourceLocation)
    /// `[T]`.
    indirect case array(TypeSyntax, SourceLocation)
    /// `[K: V]`.
    indirect case dictionary(TypeSyntax, TypeSyntax, SourceLocation)
    /// `(A, B)`; the empty tuple `()` is `Void`.
    case tuple([TypeSyntax], SourceLocation)
    /// A closure type `(A) async throws -> B`, an existential `any P`/`some P`, a metatype or other form that
    /// cannot be an argument; the text is as written.
    case unsupported(String, SourceLocation)

    /// Where the type starts.
    var location: SourceLocation {
        switch self {
        case .name(_, let location), .named(_, let location), .optional(_, let location), .array(_, let location),
            .dictionary(_, _, let location), .tuple(_, let location), .unsupported(_, let location):
            location
        }
    }

    /// The type in canonical Swift spelling (`[String: Int]`, `Set<Color>`, `Int?`).
    var description: String {
        switch self {
        case .name(let name, _): name
        case .named(let components, _):
            components.map { component in
                component.arguments.isEmpty
                    ? component.name
                    : component.name + "<" + component.arguments.map(\.description).joined(separator: ", ") + ">"
            }.joined(separator: ".")
        case .optional(let wrapped, _): wrapped.description + "?"
        case .array(let element, _): "[" + element.description + "]"
        case .dictionary(let key, let value, _): "[" + key.description + ": " + value.description + "]"
        case .tuple(let elements, _): "(" + elements.map(\.description).joined(separator: ", ") + ")"
        case .unsupported(let text, _): text
        }
    }

    /// Whether this is `Void` or `()`.
    var isVoid: Bool {
        switch self {
        case .tuple(let elements, _): elements.isEmpty
        case .name(let name, _): name == "Void"
        case .named(let components, _):
            components.map(\.name) == ["Void"] || components.map(\.name) == ["Swift", "Void"]
        default: false
        }
    }
}

extension TypeSyntax {
    /// The last component's name when the type is a name without generic arguments (`JSONValue`,
    /// `ResolveKitCore.JSONValue`), else `nil`.
    var plainLastName: String? {
        switch self {
        case .name(let name, _): name
        case .named(let components, _) where components.allSatisfy(\.arguments.isEmpty): components.last?.name
        default: nil
        }
    }

    /// The last component's name when the type is a dotted name, generic arguments or not, else `nil`.
    var lastName: String? {
        switch self {
        case .name(let name, _): name
        case .named(let components, _): components.last?.name
        default: nil
        }
    }
}
