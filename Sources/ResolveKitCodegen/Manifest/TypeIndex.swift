/// Every type, extension conformance and type alias declared in the scanned sources, by qualified name.
struct TypeIndex: Sendable {
    /// A nominal type declaration. A class: every use of a type looks its entry up, and a shared entry is one
    /// reference to count where a copied declaration is a dozen.
    ///
    /// The entry holds the list the declaration is stored in (one reference), not a copy of the declaration (a
    /// reference per member list, counted when the index is built and again when it is freed, on one core): most
    /// types are never an argument, and ``declaration`` copies one out only when it is.
    final class Entry: Sendable {
        let qualifiedName: String
        let kind: TypeDeclaration.Kind
        /// Inherited types and protocols as written (``TypeDeclaration/inheritance``).
        let inheritance: [String]
        /// The list the declaration is stored in, and its position there.
        private let siblings: [TypeDeclaration]
        private let position: Int
        /// The level the declaration states (or inherits from its extension's modifier).
        let ownAccess: AccessLevel
        /// The qualified name of the lexically enclosing type, if any.
        let parent: String?
        /// The enclosing scope, for resolving names used inside it.
        let scope: [String]

        /// The declaration, copied out of its list.
        var declaration: TypeDeclaration { siblings[position] }

        /// The entry of the declaration at `position` of `siblings`.
        init(
            qualifiedName: String, at position: Int, of siblings: [TypeDeclaration], ownAccess: AccessLevel,
            parent: String?, scope: [String]
        ) {
            self.qualifiedName = qualifiedName
            self.kind = siblings[position].kind
            self.inheritance = siblings[position].inheritance
            self.siblings = siblings
            self.position = position
            self.ownAccess = ownAccess
            self.parent = parent
            self.scope = scope
        }
    }

    /// What a name resolves to.
    enum Symbol: Sendable {
        case type(Entry)
        case alias(TypeAliasDeclaration, scope: [String])
    }

    private(set) var symbols: [String: Symbol] = [:]
    /// The last component of every symbol's name: a name whose last component is not here (`String`, `Int`)
    /// resolves to nothing without building a qualified name per scope level.
    private var lastComponents: Set<String> = []
    /// The last component of every dotted symbol name (a nested type or alias): a one-component name whose last
    /// component is not here can only be a top-level symbol, found without building a qualified name per scope level.
    private var nestedLastComponents: Set<String> = []
    private(set) var extensionConformances: [String: [String]] = [:]
    private(set) var extensionFunctions: [String: [FunctionDeclaration]] = [:]

    /// Indexes the declarations of `files`.
    ///
    /// Each file's symbols are named on every core, then inserted in file order: the first declaration of a name
    /// still wins, and extension members keep their order. The symbol table and the other tables are filled at
    /// the same time, each on a core of its own.
    init(files: [SourceFileModel]) {
        let parts = ParallelMap.map(files, FileSymbols.init)
        let tables = ParallelMap.map([Tables.Part.symbols, .names]) { Tables($0, of: parts) }
        symbols = tables[0].symbols
        lastComponents = tables[1].lastComponents
        nestedLastComponents = tables[1].nestedLastComponents
        extensionConformances = tables[1].extensionConformances
        extensionFunctions = tables[1].extensionFunctions
    }

    /// One part of the index's tables, filled from every file's symbols in file order.
    private struct Tables: Sendable {
        /// Which tables to fill.
        enum Part: Sendable {
            /// The symbol table.
            case symbols
            /// The last-component sets and the extensions' conformances and functions.
            case names
        }

        var symbols: [String: Symbol] = [:]
        var lastComponents: Set<String> = []
        var nestedLastComponents: Set<String> = []
        var extensionConformances: [String: [String]] = [:]
        var extensionFunctions: [String: [FunctionDeclaration]] = [:]

        init(_ part: Part, of files: [FileSymbols]) {
            let symbolCount = files.reduce(0) { $0 + $1.symbols.count }
            switch part {
            case .symbols:
                symbols.reserveCapacity(symbolCount)
                for file in files {
                    // The first declaration of a name wins (a duplicate does not compile anyway).
                    for (name, symbol) in file.symbols where symbols.index(forKey: name) == nil {
                        symbols[name] = symbol
                    }
                }
            case .names:
                lastComponents.reserveCapacity(symbolCount)
                for file in files {
                    for (name, _) in file.symbols { insertLastComponent(of: name) }
                    for (name, conformances, functions) in file.extensions {
                        extensionConformances[name, default: []] += conformances
                        extensionFunctions[name, default: []] += functions
                    }
                }
            }
        }

        private mutating func insertLastComponent(of name: String) {
            // Names are identifiers joined by dots: a dot byte is a dot character, found without a Character walk.
            if name.utf8.contains(UInt8(ascii: ".")) {
                let last = String(name.split(separator: ".").last ?? "")
                lastComponents.insert(last)
                nestedLastComponents.insert(last)
            } else {
                lastComponents.insert(name)
            }
        }
    }

    /// Resolves a dotted name used inside `scope`, innermost scope first, as Swift does. The components are any
    /// collection (a lazy view of a type's components), so a one-word name needs no array of its own.
    func lookup(_ components: some BidirectionalCollection<String>, from scope: [String]) -> Symbol? {
        guard let last = components.last, lastComponents.contains(last) else { return nil }
        if components.count == 1, !nestedLastComponents.contains(last) { return symbols[last] }
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

    /// Whether the type declares (or an extension adds) conformance to one of `protocolNames`, module prefix
    /// optional.
    func conforms(_ qualifiedName: String, to protocolNames: [String]) -> Bool {
        func matches(_ name: String) -> Bool {
            if protocolNames.contains(name) { return true }
            // Most names have no module prefix: only those with a dot byte are split.
            guard name.utf8.contains(UInt8(ascii: ".")) else { return false }
            let last = name.split(separator: ".").last ?? ""
            return protocolNames.contains { $0 == last }
        }
        if let declared = entry(qualifiedName)?.inheritance, declared.contains(where: matches) {
            return true
        }
        return extensionConformances[qualifiedName]?.contains(where: matches) ?? false
    }
}
