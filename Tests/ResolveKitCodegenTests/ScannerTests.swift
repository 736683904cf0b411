import Testing

@testable import ResolveKitCodegen

struct ScannerTests {
    /// `kind:text` for each token, for compact expectations.
    static func summary(_ source: String) -> [String] {
        SwiftScanner.scan(source).tokens.map { "\($0.kind):\($0.text)" }
    }

    static let cases: [(String, [String])] = [
        ("let a = 1 // note", ["identifier:let", "identifier:a", "punctuation:=", "number:1", "lineComment:// note"]),
        ("/// doc\n//// not doc", ["docLineComment:/// doc", "lineComment://// not doc"]),
        ("/* a /* nested */ b */ x", ["blockComment:/* a /* nested */ b */", "identifier:x"]),
        ("/** doc */ /**/", ["docBlockComment:/** doc */", "blockComment:/**/"]),
        (#""a \" } // b" c"#, [#"string:"a \" } // b""#, "identifier:c"]),
        (#""\(f("}")) \(g(1, (2)))" x"#, [#"string:"\(f("}")) \(g(1, (2)))""#, "identifier:x"]),
        ("\"\"\"\n  { \"\n  \"\"\" y", ["string:\"\"\"\n  { \"\n  \"\"\"", "identifier:y"]),
        (##"#"raw " \(x) }"# z"##, [##"string:#"raw " \(x) }"#"##, "identifier:z"]),
        (###"##"a "# b"## c"###, [###"string:##"a "# b"##"###, "identifier:c"]),
        ("`default`: Int", ["identifier:default", "punctuation::", "identifier:Int"]),
        (
            "[String: Set<Int>>]",
            [
                "punctuation:[", "identifier:String", "punctuation::", "identifier:Set", "punctuation:<",
                "identifier:Int",
                "punctuation:>", "punctuation:>", "punctuation:]",
            ]
        ),
        (
            "f() -> Int? ...",
            [
                "identifier:f", "punctuation:(", "punctuation:)", "punctuation:->", "identifier:Int", "punctuation:?",
                "punctuation:...",
            ]
        ),
        (
            "@available(*, deprecated) #if DEBUG",
            [
                "punctuation:@", "identifier:available", "punctuation:(", "punctuation:*", "punctuation:,",
                "identifier:deprecated", "punctuation:)", "directive:#if", "identifier:DEBUG",
            ]
        ),
        (
            "x = 0x1F + 1.5e-3 - 1_000",
            [
                "identifier:x", "punctuation:=", "number:0x1F", "punctuation:+", "number:1.5e-3", "punctuation:-",
                "number:1_000",
            ]
        ),
        ("#/a\"b/# q", ["punctuation:#/a\"b/#", "identifier:q"]),
    ]

    @Test("tokens of every literal and comment form", arguments: cases)
    func tokens(source: String, expected: [String]) {
        #expect(Self.summary(source) == expected)
    }

    static let values: [(String, String?)] = [
        (#""a\tb\n\"c\"\\ \u{1F600}""#, "a\tb\n\"c\"\\ 😀"),
        (#""x \(y)""#, nil),
        ("\"\"\"\n    one\n      two\n    \"\"\"", "one\n  two"),
        ("\"\"\"\n    joined \\\n    line\n    \"\"\"", "joined line"),
        (##"#"a\nb \#(c)"#"##, nil),
        (##"#"a\nb"#"##, #"a\nb"#),
        (##"#"tab\#tend"#"##, "tab\tend"),
    ]

    @Test("string literal values apply escapes and strip multi-line indentation", arguments: values)
    func stringValues(source: String, expected: String?) throws {
        let token = try #require(SwiftScanner.scan(source).tokens.first)
        #expect(token.kind == .string)
        #expect(token.stringValue == expected)
    }

    @Test func positionsCountLinesAndUTF8Columns() {
        let source = "struct A {\n    /* é\n */ let b = \"x\\ty\"\n\t\"\"\"\n  z\n  \"\"\" func"
        let tokens = SwiftScanner.scan(source).tokens
        let positions = tokens.map { "\($0.text.prefix(6)) \($0.line):\($0.column) \($0.precededByNewline)" }
        #expect(
            positions == [
                "struct 1:1 true", "A 1:8 false", "{ 1:10 false", "/* é\n  2:5 true", "let 3:5 true", "b 3:9 false",
                "= 3:11 false", "\"x\\ty\" 3:13 false", "\"\"\"\n   4:2 true", "func 6:7 false",
            ])
    }

    @Test func unterminatedLiteralsAndCommentsAreReportedWhereTheyStart() {
        #expect(
            SwiftScanner.scan("let a = \"abc\nlet b").problems == [
                ScanProblem(message: "unterminated string literal", line: 1, column: 9)
            ])
        #expect(
            SwiftScanner.scan("x /* a /* b */").problems == [
                ScanProblem(message: "unterminated block comment", line: 1, column: 3)
            ])
    }

    @Test func scanningCanStartAtAnOffsetInALargerFile() {
        let token = SwiftScanner.scan("@ResolveKit", line: 7, column: 4).tokens[1]
        #expect((token.line, token.column) == (7, 5))
    }
}
