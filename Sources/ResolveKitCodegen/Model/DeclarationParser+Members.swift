extension DeclarationParser {
    /// Parses `let|var a: T = value, b: U { … }`, one ``PropertyDeclaration`` per binding.
    mutating func parseProperties(modifiers: DeclarationModifiers, documentation: DocComment?) -> [PropertyDeclaration]
    {
        let isLet = current?.text == "let"
        advance()
        var properties: [PropertyDeclaration] = []
        while let nameToken = current {
            guard nameToken.kind == .identifier else {
                skipStatement()
                break
            }
            advance()
            var property = PropertyDeclaration(
                name: nameToken.text, location: location(nameToken), isLet: isLet, isStatic: modifiers.isStatic,
                isLazy: modifiers.isLazy, documentation: documentation)
            property.access = modifiers.access
            if let token = current, token.isPunctuation(":") {
                advance()
                property.type = parseTypeSyntax()
            }
            if let token = current, token.isPunctuation("=") {
                advance()
                property.hasInitializer = true
                skipExpression()
            }
            if let token = current, token.isPunctuation("{") {
                let first = peek(1)
                property.isComputed =
                    !(first?.isIdentifier("willSet") ?? false) && !(first?.isIdentifier("didSet") ?? false)
                skipBalanced()
            }
            properties.append(property)
            guard let token = current, token.isPunctuation(",") else { break }
            advance()
        }
        return properties
    }

    /// Skips an expression: up to a `,`, `;` or closing bracket at depth 0, or the start of a new statement on a
    /// later line (a line starting with a name or keyword rather than an operator or `.`).
    mutating func skipExpression() {
        let start = position
        while let token = current {
            if token.kind == .punctuation, [",", ";", ")", "]", "}"].contains(token.text) { return }
            if position > start, token.precededByNewline {
                if token.kind != .punctuation && token.kind != .string { return }
                if token.isPunctuation("@") || token.kind == .directive { return }
            }
            skipBalanced()
        }
    }

    /// Skips to the end of the current statement.
    mutating func skipStatement() {
        while let token = current, !token.isPunctuation("}") {
            skipBalanced()
            if let next = current, next.precededByNewline { return }
        }
    }

    /// Parses `case a, b = "x", c(Int)`.
    mutating func parseCases() -> [EnumCaseDeclaration] {
        advance()
        var cases: [EnumCaseDeclaration] = []
        while let nameToken = current, nameToken.kind == .identifier {
            advance()
            var enumCase = EnumCaseDeclaration(name: nameToken.text, location: location(nameToken))
            if let token = current, token.isPunctuation("(") {
                enumCase.hasAssociatedValues = true
                skipBalanced()
            }
            if let token = current, token.isPunctuation("=") {
                advance()
                let start = position
                skipExpression()
                enumCase.rawValue = (start..<position).map { tokens[code[$0]] }
            }
            cases.append(enumCase)
            guard let token = current, token.isPunctuation(",") else { break }
            advance()
        }
        return cases
    }

    /// Parses a type as written; forms that cannot be arguments become ``TypeSyntax/unsupported(_:_:)``.
    mutating func parseTypeSyntax() -> TypeSyntax {
        guard let first = current else { return .unsupported("", location(nil)) }
        let start = location(first)
        var isUnsupported = false
        while let token = current, token.isPunctuation("@") {
            advance()
            advance()
            skipAttributeArguments()
            isUnsupported = true
        }
        var type: TypeSyntax
        if let token = current, token.isIdentifier("some") || token.isIdentifier("any") {
            advance()
            _ = parseTypeSyntax()
            isUnsupported = true
            type = .unsupported("", start)
        } else {
            type = parsePrimaryType(start: start)
            if case .unsupported = type { isUnsupported = true }
        }
        while let token = current, token.isPunctuation("?") || token.isPunctuation("!"), !token.precededByNewline {
            advance()
            type = .optional(type, start)
        }
        while let token = current, token.isPunctuation("&") {
            advance()
            _ = parsePrimaryType(start: location(current))
            isUnsupported = true
        }
        if let token = current, token.isPunctuation("."), let next = peek(1),
            next.isIdentifier("Type") || next.isIdentifier("Protocol")
        {
            advance()
            advance()
            isUnsupported = true
        }
        guard isUnsupported, position > 0 else { return type }
        return .unsupported(text(from: first, to: tokens[code[position - 1]]), start)
    }

    private mutating func parsePrimaryType(start: SourceLocation) -> TypeSyntax {
        guard let token = current else { return .unsupported("", start) }
        if token.isPunctuation("[") {
            advance()
            let element = parseTypeSyntax()
            var result = TypeSyntax.array(element, start)
            if let colon = current, colon.isPunctuation(":") {
                advance()
                result = .dictionary(element, parseTypeSyntax(), start)
            }
            if let close = current, close.isPunctuation("]") { advance() }
            return result
        }
        if token.isPunctuation("(") {
            advance()
            var elements: [TypeSyntax] = []
            while let next = current, !next.isPunctuation(")") {
                if next.kind == .identifier, let colon = peek(1), colon.isPunctuation(":") {
                    advance()
                    advance()
                }
                elements.append(parseTypeSyntax())
                while let other = current, !other.isPunctuation(","), !other.isPunctuation(")") { skipBalanced() }
                if let comma = current, comma.isPunctuation(",") { advance() }
            }
            advance()
            var isFunction = false
            while let next = current, next.isIdentifier("async") || next.isIdentifier("throws") {
                advance()
                isFunction = true
                if let paren = current, paren.isPunctuation("("), next.text == "throws" { skipBalanced() }
            }
            if let arrow = current, arrow.isPunctuation("->") {
                advance()
                _ = parseTypeSyntax()
                isFunction = true
            }
            if isFunction { return .unsupported("", start) }
            return elements.count == 1 ? elements[0] : .tuple(elements, start)
        }
        guard token.kind == .identifier else {
            advance()
            return .unsupported(token.text, start)
        }
        var components: [TypeSyntax.Component] = []
        while let name = current, name.kind == .identifier {
            advance()
            // Most types are one plain name: it needs no list of components.
            if components.isEmpty, !(current?.isPunctuation("<") ?? false), !Self.continuesName(peek(0), peek(1)) {
                return .name(name.text, start)
            }
            var component = TypeSyntax.Component(name: name.text, arguments: [])
            if let open = current, open.isPunctuation("<"), !open.precededByNewline {
                advance()
                while let next = current, !next.isPunctuation(">") {
                    component.arguments.append(parseTypeSyntax())
                    while let other = current, !other.isPunctuation(","), !other.isPunctuation(">"),
                        !other.isPunctuation("{"), !other.isPunctuation("}")
                    {
                        skipBalanced()
                    }
                    if let comma = current, comma.isPunctuation(",") { advance() } else { break }
                }
                if let close = current, close.isPunctuation(">") { advance() }
            }
            components.append(component)
            guard Self.continuesName(current, peek(1)) else { break }
            advance()
        }
        if components.count == 1, components[0].arguments.isEmpty { return .name(components[0].name, start) }
        return .named(components, start)
    }

    /// Whether `dot` and `next` go on a dotted type name: `.Inner`, not `.Type` or `.Protocol`.
    private static func continuesName(_ dot: Token?, _ next: Token?) -> Bool {
        guard let dot, dot.isPunctuation("."), let next, next.kind == .identifier else { return false }
        return next.text != "Type" && next.text != "Protocol"
    }
}
