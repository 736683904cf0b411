/// A `// @ResolveKit(name: …, …)` comment: the marker's position and its labelled literal arguments.
struct Annotation: Sendable, Hashable {
    /// A literal argument value.
    enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case bool(Bool)
        /// Anything that is not a plain literal, as written.
        case expression(String)
    }

    /// One `label: value` argument.
    struct Argument: Sendable, Hashable {
        var label: String
        var labelLocation: SourceLocation
        var value: Value
        var valueLocation: SourceLocation
    }

    /// Where `@ResolveKit` is.
    var location: SourceLocation
    var arguments: [Argument]
    /// Syntax problems in the comment.
    var diagnostics: [Diagnostic]

    /// The marker text that makes a comment an annotation.
    static let marker = "@ResolveKit"

    /// Whether a comment token is an annotation (`// @ResolveKit…` or `/// @ResolveKit…`).
    static func isAnnotation(_ comment: Token) -> Bool { markerOffset(in: comment) != nil }

    private static let markerBytes = Array(marker.utf8)

    private static func markerOffset(in comment: Token) -> Int? {
        guard comment.kind == .lineComment || comment.kind == .docLineComment else { return nil }
        var text = comment.text
        return text.withUTF8 { bytes -> Int? in
            var offset = 2
            while offset < bytes.count, bytes[offset] == .slash || bytes[offset] == .space || bytes[offset] == .tab {
                offset += 1
            }
            guard bytes.count >= offset + markerBytes.count,
                markerBytes.indices.allSatisfy({ bytes[offset + $0] == markerBytes[$0] })
            else { return nil }
            let after = offset + markerBytes.count
            guard after == bytes.count || !bytes[after].isIdentifierBody else { return nil }
            return offset
        }
    }

    /// A comment that looks meant as an annotation but is not one (`@Resolvekit(…)`, `@resolvekit(…)`,
    /// `ResolveKit(…)` without `@`, or a typo of it before `(`, `@ResolveKt(…)`): the spelling found, so a warning
    /// can say why the function is not registered.
    static func nearMiss(in comment: Token) -> String? {
        // Most comments hold neither `@` nor `(`, and so cannot be a near miss: they are passed over unread.
        guard comment.kind == .lineComment || comment.kind == .docLineComment,
            comment.text.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "(") }),
            markerOffset(in: comment) == nil
        else {
            return nil
        }
        let text = comment.text.drop { $0 == "/" || $0 == " " || $0 == "\t" }
        let word = text.prefix { $0 == "@" || $0.isLetter }
        let lowered = word.lowercased()
        let opens = text.dropFirst(word.count).first == "("
        let isTypo = opens && word.first == "@" && editDistance(lowered.dropFirst(), "resolvekit", atMost: 2) <= 2
        guard lowered == "@resolvekit" || (lowered == "resolvekit" && opens) || isTypo else { return nil }
        return String(word)
    }

    /// The Levenshtein distance between `a` and `b`, or `limit + 1` once it is known to be more.
    static func editDistance(_ a: some StringProtocol, _ b: String, atMost limit: Int) -> Int {
        let (a, b) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            guard current.min()! <= limit else { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }

    /// An annotation of known parts (as read back from the cache).
    init(location: SourceLocation, arguments: [Argument], diagnostics: [Diagnostic]) {
        self.location = location
        self.arguments = arguments
        self.diagnostics = diagnostics
    }

    /// Parses an annotation comment; `nil` when the comment is not one.
    init?(comment: Token, file: String) {
        guard let offset = Self.markerOffset(in: comment) else { return nil }
        let text = String(Substring(comment.text.utf8.dropFirst(offset)))
        let (tokens, _) = SwiftScanner.scan(text, line: comment.line, column: comment.column + offset)
        func location(_ token: Token) -> SourceLocation {
            SourceLocation(file: file, line: token.line, column: token.column)
        }
        self.location = location(tokens[0])
        self.arguments = []
        self.diagnostics = []
        var index = 2
        guard tokens.count > 2, tokens[2].isPunctuation("(") else {
            let at = tokens.count > 2 ? location(tokens[2]) : location(tokens[0])
            diagnostics.append(.error("expected '(' after @ResolveKit", at: at))
            return
        }
        index = 3
        while index < tokens.count, !tokens[index].isPunctuation(")") {
            guard tokens[index].kind == .identifier, index + 1 < tokens.count, tokens[index + 1].isPunctuation(":")
            else {
                diagnostics.append(
                    .error("expected a labelled argument such as 'name: \"…\"'", at: location(tokens[index])))
                return
            }
            let label = tokens[index]
            var end = index + 2
            var depth = 0
            while end < tokens.count {
                let token = tokens[end]
                if depth == 0 && (token.isPunctuation(",") || token.isPunctuation(")")) { break }
                if ["(", "[", "{"].contains(token.text) && token.kind == .punctuation { depth += 1 }
                if [")", "]", "}"].contains(token.text) && token.kind == .punctuation { depth -= 1 }
                end += 1
            }
            let valueTokens = tokens[(index + 2)..<end]
            guard let first = valueTokens.first else {
                diagnostics.append(.error("argument '\(label.text)' has no value", at: location(label)))
                return
            }
            arguments.append(
                Argument(
                    label: label.text, labelLocation: location(label), value: Self.value(of: valueTokens, in: text),
                    valueLocation: location(first)))
            index = end
            if index < tokens.count, tokens[index].isPunctuation(",") { index += 1 }
        }
        if index >= tokens.count {
            diagnostics.append(
                .error(
                    "expected ')' to close @ResolveKit( on its line (an annotation is one comment line)",
                    at: location(tokens[tokens.count - 1])))
        }
    }

    /// The value of an argument's `tokens` (a slice of the annotation's tokens, so not indexed from zero).
    private static func value(of tokens: ArraySlice<Token>, in text: String) -> Value {
        let first = tokens.startIndex
        if tokens.count == 1 {
            let token = tokens[first]
            switch token.kind {
            case .string: if let value = token.stringValue { return .string(value) }
            case .number: if let value = Int(token.text.replacingUnderscores) { return .integer(value) }
            case .identifier where token.text == "true": return .bool(true)
            case .identifier where token.text == "false": return .bool(false)
            default: break
            }
        }
        if tokens.count == 2, tokens[first].isPunctuation("-"), tokens[first + 1].kind == .number,
            let value = Int("-" + tokens[first + 1].text.replacingUnderscores)
        {
            return .integer(value)
        }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: tokens[first].start)
        let end = utf8.index(utf8.startIndex, offsetBy: tokens[tokens.endIndex - 1].end)
        return .expression(String(decoding: utf8[start..<end], as: UTF8.self))
    }
}

extension String {
    /// The text without `_` digit separators.
    var replacingUnderscores: String { String(filter { $0 != "_" }) }
}
