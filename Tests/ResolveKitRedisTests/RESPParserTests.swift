import ResolveKitRedis
import Testing

struct RESPParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var expected: [RESPValue]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "simple string", input: "+OK\r\n", expected: [.simpleString("OK")]),
        Case(name: "error", input: "-WRONGTYPE Operation\r\n", expected: [.simpleError("WRONGTYPE Operation")]),
        Case(name: "integers", input: ":0\r\n:-42\r\n:+7\r\n", expected: [.integer(0), .integer(-42), .integer(7)]),
        Case(
            name: "extreme integers", input: ":9223372036854775807\r\n:-9223372036854775808\r\n",
            expected: [.integer(.max), .integer(.min)]),
        Case(
            name: "bulk strings, empty and binary", input: "$5\r\nhello\r\n$0\r\n\r\n$4\r\na\r\nb\r\n",
            expected: [.bulkString(Array("hello".utf8)), .bulkString([]), .bulkString(Array("a\r\nb".utf8))]),
        Case(name: "RESP2 nulls", input: "$-1\r\n*-1\r\n", expected: [.null, .null]),
        Case(name: "RESP3 null", input: "_\r\n", expected: [.null]),
        Case(
            name: "nested arrays", input: "*2\r\n*1\r\n:1\r\n*0\r\n",
            expected: [.array([.array([.integer(1)]), .array([])])]),
        Case(name: "booleans", input: "#t\r\n#f\r\n", expected: [.boolean(true), .boolean(false)]),
        Case(
            name: "doubles", input: ",3.5\r\n,-1e3\r\n,inf\r\n,-inf\r\n",
            expected: [.double(3.5), .double(-1000), .double(.infinity), .double(-.infinity)]),
        Case(
            name: "big number", input: "(3492890328409238509324850943850943825024385\r\n",
            expected: [.bigNumber("3492890328409238509324850943850943825024385")]),
        Case(
            name: "bulk error", input: "!21\r\nSYNTAX invalid syntax\r\n",
            expected: [.bulkError("SYNTAX invalid syntax")]),
        Case(
            name: "verbatim string", input: "=15\r\ntxt:Some string\r\n",
            expected: [.verbatimString(format: "txt", text: Array("Some string".utf8))]),
        Case(
            name: "map", input: "%2\r\n+first\r\n:1\r\n+second\r\n:2\r\n",
            expected: [
                .map([RESPPair(.simpleString("first"), .integer(1)), RESPPair(.simpleString("second"), .integer(2))])
            ]),
        Case(
            name: "set", input: "~2\r\n+a\r\n+b\r\n", expected: [.set([.simpleString("a"), .simpleString("b")])]),
        Case(
            name: "push", input: ">2\r\n+invalidate\r\n*1\r\n$1\r\nk\r\n",
            expected: [.push([.simpleString("invalidate"), .array([.bulkString([107])])])]),
        Case(
            name: "attribute before a value",
            input: "|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*1\r\n:2\r\n",
            expected: [
                .attributed(
                    attributes: [
                        RESPPair(.simpleString("key-popularity"), .map([RESPPair(.bulkString([97]), .double(0.19))]))
                    ],
                    value: .array([.integer(2)]))
            ]),
        Case(
            name: "attribute inside an array belongs to the next element",
            input: "*2\r\n:1\r\n|1\r\n+ttl\r\n:3\r\n:2\r\n",
            expected: [
                .array([
                    .integer(1),
                    .attributed(attributes: [RESPPair(.simpleString("ttl"), .integer(3))], value: .integer(2)),
                ])
            ]),
        Case(
            name: "empty aggregates", input: "*0\r\n%0\r\n~0\r\n>0\r\n",
            expected: [.array([]), .map([]), .set([]), .push([])]),
    ]

    @Test(arguments: cases)
    func aWholeInputParsesToItsValues(_ testCase: Case) throws {
        var parser = RESPParser()
        #expect(try parser.parse(Array(testCase.input.utf8)) == testCase.expected)
        #expect(parser.isIdle)
    }

    /// STYLE.md rule 9: the same bytes split at every boundary give the same values.
    @Test(arguments: cases)
    func anInputSplitAtEveryBoundaryParsesTheSame(_ testCase: Case) throws {
        let bytes = Array(testCase.input.utf8)
        for split in 0...bytes.count {
            var parser = RESPParser()
            let values = try parser.parse(Array(bytes[..<split])) + parser.parse(Array(bytes[split...]))
            #expect(values == testCase.expected, "split at \(split)")
        }
        var bytewise = RESPParser()
        var values: [RESPValue] = []
        for byte in bytes { values += try bytewise.parse([byte]) }
        #expect(values == testCase.expected)
    }

    @Test(arguments: cases)
    func encodingAParsedValueGivesBytesThatParseBackEqual(_ testCase: Case) throws {
        var parser = RESPParser()
        for value in try parser.parse(Array(testCase.input.utf8)) {
            var again = RESPParser()
            #expect(try again.parse(value.encoded) == [value])
        }
    }

    @Test func allCasesConcatenatedAndSplitEverywhereParseAsOneStream() throws {
        let bytes = Array(Self.cases.map(\.input).joined().utf8)
        let expected = Self.cases.flatMap(\.expected)
        for split in stride(from: 0, through: bytes.count, by: 1) {
            var parser = RESPParser()
            let values = try parser.parse(Array(bytes[..<split])) + parser.parse(Array(bytes[split...]))
            #expect(values == expected, "split at \(split)")
        }
    }

    @Test func nanParsesAsNaN() throws {
        var parser = RESPParser()
        let values = try parser.parse(Array(",nan\r\n".utf8))
        guard case .double(let value) = values.first else {
            Issue.record("not a double: \(values)")
            return
        }
        #expect(value.isNaN)
        #expect(RESPValue.double(.nan).encoded == Array(",nan\r\n".utf8))
    }

    @Test func aPartialValueIsHeldUntilItsLastByte() throws {
        var parser = RESPParser()
        #expect(try parser.parse(Array("*2\r\n$3\r\nfo".utf8)) == [])
        #expect(!parser.isIdle)
        #expect(try parser.parse(Array("o\r\n:1\r\n".utf8)) == [.array([.bulkString(Array("foo".utf8)), .integer(1)])])
        #expect(parser.isIdle)
    }

    @Test func aCommandIsEncodedAsAnArrayOfBulkStrings() {
        let command = RedisCommand("SET", "k", "v\r\n")
        #expect(String(decoding: command.encoded, as: UTF8.self) == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv\r\n\r\n")
        #expect(command.description == "SET")
    }

    @Test func readersSeeTheSameFieldsInARESP2ArrayAndARESP3Map() {
        let flat = RESPValue.array([.bulkString([97]), .bulkString([49])])
        let map = RESPValue.map([RESPPair(.bulkString([97]), .bulkString([49]))])
        #expect(flat.elements == map.elements)
        #expect(RESPValue.bulkString(Array("12".utf8)).integer == 12)
        #expect(RESPValue.attributed(attributes: [], value: .integer(3)).integer == 3)
    }
}
