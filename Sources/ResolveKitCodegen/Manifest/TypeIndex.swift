/// Every type, extension conformance and type alias declared in the scanned sources, by qualified name.
struct TypeIndex: Sendable {
    /// A nominal type declaration.
    struct Entry: Sendable {
        var qualifiedName: String
        var declaration: TypeDeclaration
        /// The level the declaration states (or inherits from its extension's modifier).
        var ownAccess: AccessLevel
        /// The qualified name of the lexically enclosing type, if any.
        var parent: String?
        /// The enclosing scope, for resolving names used inside it.
        var scope: [String]
    }

    /// What a name resolves to.
    enum Symbol: Sendable {
        case type(Entry)
        case alias(TypeAliasDeclaration, scope: [String])
    }

    private(set) var symbols: [String: Symbol] = [:]
    /// The last component of every symbol's name: a name whose last component is not here (`String`, `Int`)
    /// resolves to nothing without building a qualified name per scope level.
    private var lastComponents: Set<Substring> = []
    private(set) var extensionConformances: [String: [String]] = [:]
    private(set) var extensionFunctions: [String: [FunctionDeclaration]] = [:]

    /// Indexes the declarations of `files`.
    init(files: [SourceFileModel]) {
        for file in files {
            for alias in file.typeAliases { insert(.alias(alias, scope: []), as: alias.name) }
            for declaration in file.declarations {
                add(declaration, scope: [], parent: nil, defaultAccess: .internal)
            }
        }
    }

    private mutating func add(
        _ declaration: TypeDeclaration, scope: [String], parent: String?, defaultAccess: AccessLevel
    ) {
        var memberScope: [String]
        var memberDefault = AccessLevel.internal
        if declaration.kind == .extension {
            memberScope = declaration.name.split(separator: ".").map(String.init)
            let extended = memberScope.joined(separator: ".")
            extensionConformances[extended, default: []] += declaration.inheritance
            extensionFunctions[extended, default: []] += declaration.functions
            memberDefault = declaration.access ?? .internal
            for alias in declaration.typeAliases {
                insert(.alias(alias, scope: memberScope), as: (memberScope + [alias.name]).joined(separator: "."))
            }
            for nested in declaration.nested {
                add(nested, scope: memberScope, parent: extended, defaultAccess: memberDefault)
            }
            return
        }
        memberScope = scope + [declaration.name]
        let qualifiedName = memberScope.joined(separator: ".")
        let entry = Entry(
            qualifiedName: qualifiedName, declaration: declaration, ownAccess: declaration.access ?? defaultAccess,
            parent: parent, scope: scope)
        insert(.type(entry), as: qualifiedName)
        for alias in declaration.typeAliases {
            insert(.alias(alias, scope: memberScope), as: (memberScope + [alias.name]).joined(separator: "."))
        }
        for nested in declaration.nested {
            add(nested, scope: memberScope, parent: qualifiedName, defaultAccess: memberDefault)
        }
    }

    /// Keeps the first declaration of a name (a duplicate does not compile anyway).
    private mutating func insert(_ symbol: Symbol, as name: String) {
        if symbols[name] == nil { symbols[name] = symbol }
        lastComponents.insert(name.split(separator: ".").last ?? Substring(name))
    }

    /// Resolves a dotted name used inside `scope`, innermost scope first, as Swift does.
    func lookup(_ components: [String], from scope: [String]) -> Symbol? {
        guard let last = components.last, lastComponents.contains(Substring(last)) else { return nil }
        for length in stride(from: scope.count, through: 0, by: -1) {
            if let symbol = symbols[(scope.prefix(length) + components).joined(separator: ".")] { return symbol }
        }
        return nil
    }

    /// The type entry of a qualified name.
    func entry(_ qualifiedName: String) -> Entry? {
        if case .type(let entry) = symbols[qualifiedName] { return entry }
        return nil
    }

    /// The most restrictive access level along the type's nesting chain.
    func effectiveAccess(of qualifiedName: String) -> AccessLevel {
        guard let entry = entry(qualifiedName) else { return .open }
        return min(entry.ownAccess, entry.parent.map(effectiveAccess(of:)) ?? .open)
    }

    /// Whether the type declares (or an extension adds) conformance to `protocolName`, module prefix optional.
    func conforms(_ qualifiedName: String, to protocolNames: Set<String>) -> Bool {
        let declared = entry(qualifiedName)?.declaration.inheritance ?? []
        return (declared + (extensionConformances[qualifiedName] ?? [])).contains { name in
            protocolNames.contains(name) || protocolNames.contains(String(name.split(separator: ".").last ?? ""))
        }
    }
}
