import ResolveKitTerminal
import Testing

struct StyledLineTests {
    private let line = StyledLine([.init("abc", .bold), .init("defg"), .init("abc", .bold)])

    @Test(
        "Wrapping cuts at the width across styled pieces and indents continuation lines",
        arguments: [
            (10, 0, ["abcdefgabc"]),
            (5, 0, ["abcde", "fgabc"]),
            (4, 0, ["abcd", "efga", "bc"]),
            (5, 2, ["abcde", "  fga", "  bc"]),
            (3, 0, ["abc", "def", "gab", "c"]),
        ])
    func wraps(width: Int, indent: Int, expected: [String]) {
        let lines = line.wrapped(to: width, indent: indent)
        #expect(lines.map(\.plainText) == expected)
        #expect(lines.allSatisfy { $0.width <= width })
    }

    @Test("Colours are SGR codes around styled pieces, and nothing without colours")
    func rendering() {
        #expect(line.rendered(colors: true) == "\u{1B}[1mabc\u{1B}[0mdefg\u{1B}[1mabc\u{1B}[0m")
        #expect(line.rendered(colors: false) == "abcdefgabc")
    }
}
