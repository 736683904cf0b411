extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let tab = UInt8(ascii: "\t")
    static let space = UInt8(ascii: " ")
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let star = UInt8(ascii: "*")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let backtick = UInt8(ascii: "`")
    static let dollar = UInt8(ascii: "$")
    static let dot = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let less = UInt8(ascii: "<")
    static let greater = UInt8(ascii: ">")
    static let zero = UInt8(ascii: "0")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    /// A letter, `_` or any byte of a multi-byte UTF-8 sequence (Swift allows most non-ASCII letters in names).
    var isIdentifierHead: Bool {
        (self >= 0x61 && self <= 0x7A) || (self >= 0x41 && self <= 0x5A) || self == 0x5F || self >= 0x80
    }

    /// A byte that may continue a name.
    var isIdentifierBody: Bool { isIdentifierHead || isDigit }

    /// `0`…`9`.
    var isDigit: Bool { self >= 0x30 && self <= 0x39 }

    /// Operator characters that form one token together (`==`, `+=`, `&&`); `<`, `>`, `?`, `!` stand alone so
    /// that generic brackets and optionals are separate tokens.
    var isGroupedOperator: Bool {
        switch self {
        case UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// The lowercase form of an ASCII letter, `nil` for anything else.
    var lowercasedASCII: UInt8? {
        if self >= 0x41 && self <= 0x5A { return self + 0x20 }
        if self >= 0x61 && self <= 0x7A { return self }
        return nil
    }
}
