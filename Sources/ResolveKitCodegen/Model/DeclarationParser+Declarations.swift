extension DeclarationParser {
    /// Parses `struct|enum|class|actor|protocol|extension Name<…>: Inherited where … { members }`.
    mutating func parseType(modifiers: DeclarationModifiers) -> TypeDeclaration {
        let kind = TypeDeclaration.Kind(rawValue: current?.text ?? "") ?? .struct
        advance()
        let nameToken = current
        var name = ""
        if kind == .extension {
            switch parseTypeSyntax() {
            case .name(let typeName, _): name = typeName
            case .named(let components, _): name = components.map(\.name).joined(separator: ".")
            default: break
            }
        } else if let token = current, token.kind == .identifier {
            name = token.text
            advance()
        }
        var declaration = TypeDeclaration(
            kind: kind, name: name, location: location(nameToken), access: modifiers.access)
        if let token = current, token.isPunctuation("<") { declaration.genericParameters = parseGenericParameters() }
        if let token = current, token.isPunctuation(":") {
            advance()
            declaration.inheritance = parseInheritance()
        }
        while let token = current, !token.isPunctuation("{"), !token.isPunctuation("}") {
            if token.kind == .identifier, Self.typeKeywords.contains(token.text) || token.text == "func" { break }
            skipBalanced()
        }
        if let token = current, token.isPunctuation("{") {
            advance()
            parseMembers(into: &declaration, isTopLevel: false)
        }
        return declaration
    }

    /// The names in `<T: P, U>`.
    mutating func parseGenericParameters() -> [String] {
        var names: [String] = []
        var depth = 0
        var expectName = true
        while let token = current {
            advance()
            if token.isPunctuation("<") {
                depth += 1
                expectName = depth == 1
            } else if token.isPunctuation(">") {
                depth -= 1
                if depth == 0 { break }
            } else if depth == 1, token.isPunctuation(",") {
                expectName = true
            } else if expectName, depth == 1, token.kind == .identifier {
                names.append(token.text)
                expectName = false
            }
        }
        return names
    }

    /// The inherited type names up to the body or `where` clause, generic arguments dropped.
    mutating func parseInheritance() -> [String] {
        var names: [String] = []
        // The components of the name being read, joined with dots as they come.
        var currentName = ""
        var hasName = false
        var depth = 0
        while let token = current {
            if depth == 0, token.isPunctuation("{") || token.isIdentifier("where") { break }
            if depth == 0, token.kind == .identifier, Self.typeKeywords.contains(token.text), token.precededByNewline {
                break
            }
            advance()
            if token.isPunctuation("<") { depth += 1 }
            if token.isPunctuation(">") { depth -= 1 }
            if depth == 0, token.kind == .identifier, token.text != "any" {
                if hasName { currentName += "." }
                currentName += token.text
                hasName = true
            }
            if depth == 0, token.isPunctuation(",") || token.isPunctuation("&") {
                names.append(currentName)
                currentName = ""
                hasName = false
            }
        }
        if hasName { names.append(currentName) }
        return names
    }

    /// Parses `func name<…>(parameters) async throws -> Result where … { body }`.
    mutating func parseFunction() -> FunctionDeclaration {
        advance()
        let nameToken = current
        advance()
        var function = FunctionDeclaration(name: nameToken?.text ?? "", location: location(nameToken))
        if let token = current, token.isPunctuation("<") { function.genericParameters = parseGenericParameters() }
        if let token = current, token.isPunctuation("(") { function.parameters = parseParameters() }
        while let token = current, token.kind == .identifier {
            switch token.text {
            case "async", "reasync": function.isAsync = true
            case "throws", "rethrows": function.isThrowing = true
            default: break
            }
            guard ["async", "reasync", "throws", "rethrows"].contains(token.text) else { break }
            advance()
            if let next = current, next.isPunctuation("("), token.text == "throws" { skipBalanced() }
        }
        if let token = current, token.isPunctuation("->") {
            advance()
            function.returnType = parseTypeSyntax()
        }
        if let token = current, token.isIdentifier("where") {
            while let next = current, !next.isPunctuation("{"), !next.isPunctuation("}") { skipBalanced() }
        }
        if let token = current, token.isPunctuation("{") { skipBalanced() }
        return function
    }

    /// Parses a parenthesised parameter list.
    mutating func parseParameters() -> [ParameterDeclaration] {
        var parameters: [ParameterDeclaration] = []
        // Room for every parameter up front, rather than regrowing the list parameter by parameter.
        parameters.reserveCapacity(listElementCount())
        advance()
        while let token = current, !token.isPunctuation(")") {
            if let parameter = parseParameter() { parameters.append(parameter) }
            while let next = current, !next.isPunctuation(","), !next.isPunctuation(")") { skipBalanced() }
            if let next = current, next.isPunctuation(",") { advance() }
        }
        advance()
        return parameters
    }

    mutating func parseParameter() -> ParameterDeclaration? {
        while let token = current, token.isPunctuation("@") {
            advance()
            advance()
        }
        guard let first = current, first.kind == .identifier else { return nil }
        var label: String? = first.text
        var name = first.text
        var nameToken = first
        if let second = peek(1), second.kind == .identifier, let colon = peek(2), colon.isPunctuation(":") {
            name = second.text
            nameToken = second
            advance()
        }
        if label == "_" { label = nil }
        advance()
        guard let colon = current, colon.isPunctuation(":") else { return nil }
        advance()
        var specifier: String?
        if let token = current,
            ["inout", "borrowing", "consuming", "__owned", "__shared", "sending"].contains(token.text)
        {
            specifier = token.text
            advance()
        }
        var parameter = ParameterDeclaration(
            label: label, name: name, location: location(nameToken), type: parseTypeSyntax(), specifier: specifier)
        if let token = current, token.isPunctuation("...") {
            parameter.isVariadic = true
            advance()
        }
        if let token = current, token.isPunctuation("=") {
            advance()
            let start = position
            while let next = current, !next.isPunctuation(","), !next.isPunctuation(")") { skipBalanced() }
            let valueTokens = (start..<position).map { tokens[code[$0]] }
            if !valueTokens.isEmpty {
                parameter.defaultValue = DefaultValueSyntax(tokens: valueTokens, text: Self.joined(valueTokens))
            }
        }
        return parameter
    }

    /// The tokens' text as written, with comments dropped and every gap (spaces, line breaks, comments) reduced
    /// to one space, so that an expression can be copied onto one line of generated code.
    static func joined(_ tokens: [Token]) -> String {
        var text = ""
        var previousEnd: Int?
        for token in tokens {
            if let previousEnd, token.start != previousEnd { text += " " }
            text +=
                token.kind == .identifier && token.end - token.start != token.text.utf8.count
                ? "`\(token.text)`" : token.text
            previousEnd = token.end
        }
        return text
    }

    /// Parses `typealias Name = Type`.
    mutating func parseTypeAlias() -> TypeAliasDeclaration? {
        advance()
        guard let nameToken = current, nameToken.kind == .identifier else { return nil }
        advance()
        if let token = current, token.isPunctuation("<") { _ = parseGenericParameters() }
        guard let token = current, token.isPunctuation("=") else { return nil }
        advance()
        return TypeAliasDeclaration(name: nameToken.text, location: location(nameToken), target: parseTypeSyntax())
    }
}
