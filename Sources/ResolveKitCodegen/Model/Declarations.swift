/// Swift's access levels, ordered from most to least restrictive.
enum AccessLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    /// Reads an access modifier keyword.
    init?(keyword: String) {
        guard let level = Self.allCases.first(where: { $0.keyword == keyword }) else { return nil }
        self = level
    }

    /// The keyword.
    var keyword: String {
        switch self {
        case .private: "private"
        case .fileprivate: "fileprivate"
        case .internal: "internal"
        case .package: "package"
        case .public: "public"
        case .open: "open"
        }
    }

    /// The modifier generated members need to satisfy a public protocol for a type of this level, with a trailing
    /// space; empty for internal.
    var memberPrefix: String {
        switch self {
        case .public, .open: "public "
        case .package: "package "
        default: ""
        }
    }

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A nominal type or extension declaration with the members the generator cares about.
struct TypeDeclaration: Sendable, Hashable {
    /// The declaration keyword.
    enum Kind: String, Sendable, Hashable {
        case `struct`, `enum`, `class`, `actor`, `protocol`, `extension`
    }

    var kind: Kind
    /// The declared name, or for an extension the extended type as written (`Outer.Inner`).
    var name: String
    /// Where the name is.
    var location: SourceLocation
    /// The explicit access modifier, if any.
    var access: AccessLevel?
    var genericParameters: [String] = []
    /// Inherited types and protocols as written, generic arguments dropped (`Codable`, `String`).
    var inheritance: [String] = []
    var documentation: DocComment?
    /// The `// @ResolveKit(…)` comment above the declaration, if any.
    var annotation: Annotation?
    var functions: [FunctionDeclaration] = []
    var properties: [PropertyDeclaration] = []
    var cases: [EnumCaseDeclaration] = []
    var typeAliases: [TypeAliasDeclaration] = []
    var nested: [TypeDeclaration] = []
}

/// A `func` declaration's signature.
struct FunctionDeclaration: Sendable, Hashable {
    var name: String
    var location: SourceLocation
    var isStatic = false
    var isMutating = false
    /// The written access level; `nil` when omitted.
    var access: AccessLevel?
    var genericParameters: [String] = []
    var parameters: [ParameterDeclaration] = []
    var isAsync = false
    var isThrowing = false
    /// The written result type; `nil` when omitted (`Void`).
    var returnType: TypeSyntax?
}

/// One parameter of a function.
struct ParameterDeclaration: Sendable, Hashable {
    /// The argument label; `nil` for `_`.
    var label: String?
    /// The name inside the function body.
    var name: String
    var location: SourceLocation
    var type: TypeSyntax
    /// The default value's tokens and text, if it has one.
    var defaultValue: DefaultValueSyntax?
    var isVariadic = false
    /// `inout`, `borrowing`, `consuming` or `nil`.
    var specifier: String?
}

/// A default value expression.
struct DefaultValueSyntax: Sendable, Hashable {
    /// The expression's tokens.
    var tokens: [Token]
    /// The expression as written.
    var text: String
}

/// A `let` or `var` member (one binding of it).
struct PropertyDeclaration: Sendable, Hashable {
    var name: String
    var location: SourceLocation
    var type: TypeSyntax?
    var isLet: Bool
    var isStatic = false
    /// The explicit access modifier, if any.
    var access: AccessLevel?
    var hasInitializer = false
    /// Whether it has a getter block (computed), as opposed to none or only observers.
    var isComputed = false
    var isLazy = false
    var documentation: DocComment?
}

/// One case of an enum.
struct EnumCaseDeclaration: Sendable, Hashable {
    var name: String
    var location: SourceLocation
    /// The explicit raw value's token (a string or number literal, possibly after a `-`).
    var rawValue: [Token] = []
    var hasAssociatedValues = false
}

/// `typealias Name = Type`.
struct TypeAliasDeclaration: Sendable, Hashable {
    var name: String
    var location: SourceLocation
    var target: TypeSyntax
}

/// Everything the parser found in one file.
struct SourceFileModel: Sendable, Hashable {
    var path: String
    var declarations: [TypeDeclaration]
    /// File-scope `typealias`es.
    var typeAliases: [TypeAliasDeclaration] = []
    /// Lexical problems and misplaced annotations.
    var diagnostics: [Diagnostic]
}
