import Foundation

/// The values a message offers an agent looking for arguments: numbers, quoted texts and id-like tokens
/// (`A-1234`, `INC0042`, `cron.service`, `/var/log/syslog`), each at its word's position, beside the message's words.
/// Pure.
struct MessageValues {
    /// One value of the message.
    struct Value: Equatable {
        enum Kind: Equatable {
            case number(Double)
            case quoted
            case identifier
        }

        var kind: Kind
        /// The text, without quotes.
        var text: String
        /// The position of its word in ``MessageValues/words``.
        var position: Int
    }

    /// The message's words, lower-cased, with surrounding punctuation removed; a quoted text is one word.
    private(set) var words: [String] = []
    /// The values, in the order they appear.
    private(set) var values: [Value] = []
    /// The values already given to a parameter, by index: each is used once.
    var used: Set<Int> = []

    /// Reads the values of `text`.
    init(_ text: String) {
        var rest = Substring(text)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if let quote = rest.first, quote == "\"" || quote == "'",
                let end = rest.dropFirst().firstIndex(of: quote)
            {
                let inner = String(rest[rest.index(after: rest.startIndex)..<end])
                values.append(Value(kind: .quoted, text: inner, position: words.count))
                words.append(inner.lowercased())
                rest = rest[rest.index(after: end)...]
                continue
            }
            let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
            add(Self.trimmed(rest[..<end]))
            rest = rest[end...]
        }
    }

    private mutating func add(_ token: Substring) {
        let position = words.count
        words.append(token.lowercased())
        guard !token.isEmpty else { return }
        if let number = Double(token), token.contains(where: \.isNumber), number.isFinite {
            values.append(Value(kind: .number(number), text: String(token), position: position))
        } else if Self.isIdentifier(token) {
            values.append(Value(kind: .identifier, text: String(token), position: position))
        }
    }

    /// A token that is no plain word: letters with digits (`A-1234`, `INC0042`), or parts joined by `.`, `-`, `_`,
    /// `:` or `/` (`cron.service`, `eu-west-1`), or a path (`/var/log/syslog`, `~/notes.txt`).
    static func isIdentifier(_ token: Substring) -> Bool {
        let allowed = token.allSatisfy { $0.isLetter || $0.isNumber || "._:/-~@".contains($0) }
        guard allowed, token.contains(where: { $0.isLetter || $0.isNumber }) else { return false }
        if token.hasPrefix("/") || token.hasPrefix("~/") { return true }
        let hasLetter = token.contains(where: \.isLetter)
        let hasDigit = token.contains(where: \.isNumber)
        let joined = token.dropFirst().dropLast().contains { "._:/-".contains($0) }
        return (hasLetter && hasDigit) || (hasLetter && joined && token.first?.isLetter == true)
    }

    /// `token` without the punctuation a sentence puts around a word: `(`, `)`, `,`, `;`, `?`, `!`, a trailing `.`
    /// or `:`.
    static func trimmed(_ token: Substring) -> Substring {
        var token = token
        while let first = token.first, "([{\"'".contains(first) { token = token.dropFirst() }
        while let last = token.last, ")]}\"',;?!.:".contains(last) { token = token.dropLast() }
        return token
    }
}
