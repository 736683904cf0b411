/// Builds the declaration model of one file from its tokens: types with nesting, members, `perform` signatures,
/// enum cases, stored properties, doc comments and `@ResolveKit` annotations.
///
/// It is not a full Swift parser. It recognises declarations by their keywords and skips everything else by
/// balancing brackets, which the scanner makes reliable (brackets inside strings and comments are never seen).
struct DeclarationParser {
    static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "static", "class", "override",
        "mutating", "nonmutating", "lazy", "weak", "unowned", "indirect", "convenience", "required", "dynamic",
        "nonisolated", "isolated", "consuming", "borrowing", "distributed", "prefix", "postfix", "infix",
        "optional", "__consuming",
    ]
    static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]

    let tokens: [Token]
    let code: [Int]
    /// For each code token: +1 for `(`, `[`, `{`, -1 for `)`, `]`, `}`, else 0. Bodies are most of the tokens and
    /// are skipped by balancing alone, without looking at the tokens' text.
    let brackets: [Int8]
    let file: String
    let source: [UInt8]
    var position = 0
    var diagnostics: [Diagnostic] = []
    var attachedAnnotations: Set<Int> = []

    /// Parses one file.
    static func parse(source: String, path: String) -> SourceFileModel {
        let (tokens, problems) = SwiftScanner.scan(source)
        var parser = DeclarationParser(tokens: tokens, file: path, source: Array(source.utf8))
        // A warning, not an error: the compiler reports a real one, and a construct the scanner does not know
        // (a bare `/…/` regex with a quote) must not fail the build.
        parser.diagnostics = problems.map {
            .warning($0.message, at: SourceLocation(file: path, line: $0.line, column: $0.column))
        }
        var topLevel = TypeDeclaration(kind: .extension, name: "", location: parser.location(tokens.first))
        parser.parseMembers(into: &topLevel, isTopLevel: true)
        // By index here and below: a token is read where it is stored, not copied out first.
        for index in tokens.indices
        where tokens[index].isComment && Annotation.isAnnotation(tokens[index])
            && !parser.attachedAnnotations.contains(index)
        {
            parser.diagnostics.append(
                .error(
                    "@ResolveKit must be directly above a struct declaration (doc comment lines may surround it)",
                    at: parser.location(tokens[index])))
        }
        for index in tokens.indices where tokens[index].isComment {
            guard let spelling = Annotation.nearMiss(in: tokens[index]) else { continue }
            parser.diagnostics.append(
                .warning(
                    "'\(spelling)' is not an annotation, so nothing below it is registered; write '// @ResolveKit(name: …)'",
                    at: parser.location(tokens[index])))
        }
        return SourceFileModel(
            path: path, declarations: topLevel.nested, typeAliases: topLevel.typeAliases,
            diagnostics: parser.diagnostics)
    }

    init(tokens: [Token], file: String, source: [UInt8]) {
        self.tokens = tokens
        // Room for every token up front: filtering into an array of unknown length would regrow it a dozen times.
        var code: [Int] = []
        code.reserveCapacity(tokens.count)
        for index in tokens.indices where !tokens[index].isComment { code.append(index) }
        self.code = code
        // A one-byte punctuation token's byte is its text: comparing the byte costs less than comparing Strings.
        self.brackets = code.map { index in
            let token = tokens[index]
            guard token.kind == .punctuation, token.end - token.start == 1 else { return 0 }
            switch source[token.start] {
            case .openParen, UInt8(ascii: "["), .openBrace: return 1
            case .closeParen, UInt8(ascii: "]"), .closeBrace: return -1
            default: return 0
            }
        }
        self.file = file
        self.source = source
    }

    // MARK: Cursor

    var current: Token? { position < code.count ? tokens[code[position]] : nil }

    func peek(_ offset: Int) -> Token? {
        position + offset < code.count ? tokens[code[position + offset]] : nil
    }

    /// Moves to the next code token; never past the end, so `position - 1` always names a real token once the
    /// parser has moved (truncated input such as `perform(a: Int` ends a parse, it does not overrun it).
    mutating func advance() { position = min(position + 1, code.count) }

    func location(_ token: Token?) -> SourceLocation {
        guard let token else {
            let last = tokens.last
            return SourceLocation(file: file, line: last?.line ?? 1, column: last?.column ?? 1)
        }
        return SourceLocation(file: file, line: token.line, column: token.column)
    }

    func text(from first: Token, to last: Token) -> String {
        String(decoding: source[first.start..<max(first.start, last.end)], as: UTF8.self)
    }

    /// The indices of the comments between the previous code token and the one at `position`; those on their own
    /// lines (``isOwnLine(_:)``) lead the declaration there.
    func commentGap() -> Range<Int> {
        guard position < code.count else { return 0..<0 }
        let first = position == 0 ? 0 : code[position - 1] + 1
        return first..<max(first, code[position])
    }

    /// Whether the token at `index` starts its line (or the text).
    func isOwnLine(_ index: Int) -> Bool { tokens[index].precededByNewline || index == 0 }

    /// Skips a bracketed group starting at an opening `(`, `[` or `{`, or one token otherwise.
    mutating func skipBalanced() {
        guard position < code.count, brackets[position] > 0 else {
            advance()
            return
        }
        var depth = 0
        while position < code.count {
            depth += Int(brackets[position])
            position += 1
            if depth == 0 { return }
        }
    }

    /// About how many elements the bracketed list opening at `position` holds: its commas one level deep, plus
    /// one unless it is empty (a comma inside `<…>` counts too: the number only sizes a list).
    func listElementCount() -> Int {
        guard position < code.count, brackets[position] > 0 else { return 0 }
        var depth = 0
        var commas = 0
        var index = position
        while index < code.count {
            depth += Int(brackets[index])
            index += 1
            if depth == 0 { break }
            if depth == 1, index < code.count, tokens[code[index]].kind == .punctuation,
                tokens[code[index]].end - tokens[code[index]].start == 1, source[tokens[code[index]].start] == .comma
            {
                commas += 1
            }
        }
        return index - position > 2 ? commas + 1 : 0
    }

    /// Skips `(…)` directly after an attribute name (no space between, as Swift requires).
    mutating func skipAttributeArguments() {
        guard position > 0, let next = current, next.isPunctuation("("),
            next.start == tokens[code[position - 1]].end
        else { return }
        skipBalanced()
    }

    // MARK: Members

    mutating func parseMembers(into container: inout TypeDeclaration, isTopLevel: Bool) {
        while let token = current {
            if token.isPunctuation("}") {
                advance()
                if isTopLevel { continue }
                return
            }
            parseDeclaration(into: &container)
        }
    }

    mutating func parseDeclaration(into container: inout TypeDeclaration) {
        let comments = commentGap()
        let start = position
        var modifiers = DeclarationModifiers()
        while let token = current {
            if token.isPunctuation("@") {
                advance()
                if current?.kind == .identifier { advance() }
                skipAttributeArguments()
                continue
            }
            guard token.kind == .identifier, Self.modifiers.contains(token.text) else { break }
            if token.text == "class", let next = peek(1), next.kind == .identifier,
                !Self.modifiers.contains(next.text), !["func", "var", "let", "subscript", "init"].contains(next.text)
            {
                break
            }
            advance()
            if let next = current, next.isPunctuation("(") {
                skipBalanced()
                continue
            }
            if let level = AccessLevel(keyword: token.text) { modifiers.access = level }
            if token.text == "static" || token.text == "class" { modifiers.isStatic = true }
            if token.text == "mutating" { modifiers.isMutating = true }
            if token.text == "lazy" { modifiers.isLazy = true }
        }
        guard let keyword = current else { return }
        // Each leading comment is checked once: an annotation is no documentation, and the last one is the
        // declaration's.
        let annotations = comments.filter { isOwnLine($0) && Annotation.isAnnotation(tokens[$0]) }
        let documentation = DocComment(tokens: tokens, in: comments, file: file) { index in
            isOwnLine(index) && !annotations.contains(index)
        }
        switch keyword.kind == .identifier ? keyword.text : "" {
        case let word where Self.typeKeywords.contains(word):
            var declaration = parseType(modifiers: modifiers)
            declaration.documentation = documentation
            if let index = annotations.last {
                attachedAnnotations.insert(index)
                declaration.annotation = Annotation(comment: tokens[index], file: file)
            }
            container.nested.append(declaration)
        case "func":
            var function = parseFunction()
            function.isStatic = modifiers.isStatic
            function.isMutating = modifiers.isMutating
            function.access = modifiers.access
            container.functions.append(function)
        case "var", "let":
            container.properties += parseProperties(modifiers: modifiers, documentation: documentation)
        case "case" where container.kind == .enum:
            container.cases += parseCases()
        case "typealias":
            if let alias = parseTypeAlias() { container.typeAliases.append(alias) }
        case "import":
            advance()
            while let next = current, !next.precededByNewline, !next.isPunctuation(";") { advance() }
        default:
            if keyword.kind == .directive {
                advance()
                if ["#if", "#elseif"].contains(keyword.text) {
                    while let next = current, !next.precededByNewline { advance() }
                } else if let next = current, next.isPunctuation("(") {
                    skipBalanced()
                }
            } else if position == start || keyword.kind == .punctuation {
                skipBalanced()
            }
        }
    }
}

/// The modifiers in front of a declaration that matter to the generator.
struct DeclarationModifiers {
    var access: AccessLevel?
    var isStatic = false
    var isMutating = false
    var isLazy = false
}
