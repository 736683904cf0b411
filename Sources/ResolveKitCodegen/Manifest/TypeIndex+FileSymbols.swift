extension TypeIndex {
    /// The symbols and extensions one file declares, named by their qualified names, in declaration order.
    struct FileSymbols: Sendable {
        private(set) var symbols: [(name: String, symbol: Symbol)] = []
        /// Each extension's extended type, its conformances and its functions.
        private(set) var extensions: [(name: String, conformances: [String], functions: [FunctionDeclaration])] = []

        /// Names the declarations of `file`.
        init(_ file: SourceFileModel) {
            // Room for the top-level symbols up front (nested ones are few), rather than regrowing the list.
            symbols.reserveCapacity(file.typeAliases.count + file.declarations.count)
            for alias in file.typeAliases { symbols.append((alias.name, .alias(alias, scope: []))) }
            // By index here and below: a declaration is read where it is stored, not copied out first.
            for position in file.declarations.indices {
                add(at: position, of: file.declarations, scope: [], parent: nil, defaultAccess: .internal)
            }
        }

        /// Names the declaration at `position` of `siblings` (read in place there, not copied out) and its members.
        private mutating func add(
            at position: Int, of siblings: [TypeDeclaration], scope: [String], parent: String?,
            defaultAccess: AccessLevel
        ) {
            var memberScope: [String]
            var memberDefault = AccessLevel.internal
            let name = siblings[position].name
            if siblings[position].kind == .extension {
                memberScope = name.split(separator: ".").map(String.init)
                let extended = memberScope.joined(separator: ".")
                extensions.append((extended, siblings[position].inheritance, siblings[position].functions))
                memberDefault = siblings[position].access ?? .internal
                for alias in siblings[position].typeAliases {
                    symbols.append(
                        ((memberScope + [alias.name]).joined(separator: "."), .alias(alias, scope: memberScope)))
                }
                let nested = siblings[position].nested
                for index in nested.indices {
                    add(at: index, of: nested, scope: memberScope, parent: extended, defaultAccess: memberDefault)
                }
                return
            }
            // A top-level name is its own qualified name, and a scope is built only for a type that has members to
            // name with it.
            let qualifiedName = scope.isEmpty ? name : (scope + [name]).joined(separator: ".")
            let entry = Entry(
                qualifiedName: qualifiedName, at: position, of: siblings,
                ownAccess: siblings[position].access ?? defaultAccess, parent: parent, scope: scope)
            symbols.append((qualifiedName, .type(entry)))
            guard !siblings[position].typeAliases.isEmpty || !siblings[position].nested.isEmpty else { return }
            memberScope = scope + [name]
            for alias in siblings[position].typeAliases {
                symbols.append(((memberScope + [alias.name]).joined(separator: "."), .alias(alias, scope: memberScope)))
            }
            let nested = siblings[position].nested
            for index in nested.indices {
                add(at: index, of: nested, scope: memberScope, parent: qualifiedName, defaultAccess: memberDefault)
            }
        }
    }
}
