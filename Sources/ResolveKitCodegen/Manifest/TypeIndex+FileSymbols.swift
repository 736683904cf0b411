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
            for declaration in file.declarations.indices {
                add(file.declarations[declaration], scope: [], parent: nil, defaultAccess: .internal)
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
                extensions.append((extended, declaration.inheritance, declaration.functions))
                memberDefault = declaration.access ?? .internal
                for alias in declaration.typeAliases {
                    symbols.append(
                        ((memberScope + [alias.name]).joined(separator: "."), .alias(alias, scope: memberScope)))
                }
                for nested in declaration.nested.indices {
                    add(declaration.nested[nested], scope: memberScope, parent: extended, defaultAccess: memberDefault)
                }
                return
            }
            // A top-level name is its own qualified name, and a scope is built only for a type that has members to
            // name with it.
            let qualifiedName = scope.isEmpty ? declaration.name : (scope + [declaration.name]).joined(separator: ".")
            let entry = Entry(
                qualifiedName: qualifiedName, declaration: declaration, ownAccess: declaration.access ?? defaultAccess,
                parent: parent, scope: scope)
            symbols.append((qualifiedName, .type(entry)))
            guard !declaration.typeAliases.isEmpty || !declaration.nested.isEmpty else { return }
            memberScope = scope + [declaration.name]
            for alias in declaration.typeAliases {
                symbols.append(((memberScope + [alias.name]).joined(separator: "."), .alias(alias, scope: memberScope)))
            }
            for nested in declaration.nested.indices {
                add(declaration.nested[nested], scope: memberScope, parent: qualifiedName, defaultAccess: memberDefault)
            }
        }
    }
}
