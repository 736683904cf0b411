import ResolveKitRedis
import Testing

struct RESPParserLimitTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var code: RESPParseError.Code
        var offset: Int
        var testDescription: String { name }
    }

    static let limits = RESPParser.Limits(maxBulkLength: 8, maxLineLength: 16, maxDepth: 3, maxAggregateCount: 4)

    static let cases: [Case] = [
        Case(name: "bulk over the limit", input: "+OK\r\n$9\r\n123456789\r\n", code: .bulkTooLong, offset: 5),
        Case(name: "bulk error over the limit", input: "!9\r\n", code: .bulkTooLong, offset: 0),
        Case(name: "line over the limit", input: "+12345678901234567\r\n", code: .lineTooLong, offset: 0),
        Case(
            name: "unterminated line over the limit", input: ":1\r\n+1234567890123456789", code: .lineTooLong, offset: 4
        ),
        Case(name: "line without CR over the limit", input: "+12345678901234567\n", code: .lineTooLong, offset: 0),
        Case(name: "nesting over the limit", input: "*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", code: .tooDeep, offset: 12),
        Case(name: "aggregate over the limit", input: "*5\r\n", code: .aggregateTooLarge, offset: 0),
        Case(name: "map over the limit", input: "%5\r\n", code: .aggregateTooLarge, offset: 0),
        Case(name: "unknown type", input: ":1\r\n?x\r\n", code: .unknownType, offset: 4),
        Case(name: "LF without CR", input: "+OK\n", code: .malformed, offset: 0),
        Case(name: "empty line", input: "\r\n", code: .malformed, offset: 0),
        Case(name: "letters in an integer", input: ":12a\r\n", code: .malformed, offset: 0),
        Case(name: "integer over the line limit", input: ":9223372036854775808\r\n", code: .lineTooLong, offset: 0),
        Case(name: "length below -1", input: "$-2\r\n", code: .malformed, offset: 0),
        Case(name: "null map", input: "%-1\r\n", code: .malformed, offset: 0),
        Case(name: "bulk without CRLF after it", input: "$2\r\nabXY", code: .malformed, offset: 0),
        Case(name: "bad boolean", input: "#x\r\n", code: .malformed, offset: 0),
        Case(name: "bad double", input: ",1.2.3\r\n", code: .malformed, offset: 0),
        Case(name: "bad big number", input: "(12x\r\n", code: .malformed, offset: 0),
        Case(name: "null with text", input: "_x\r\n", code: .malformed, offset: 0),
        Case(name: "verbatim without format", input: "=4\r\nabcd\r\n", code: .malformed, offset: 0),
        Case(name: "streamed string", input: "$?\r\n", code: .unsupported, offset: 0),
    ]

    @Test(arguments: cases)
    func aViolationIsATypedErrorWhereverTheInputIsSplit(_ testCase: Case) {
        let bytes = Array(testCase.input.utf8)
        for split in 0...bytes.count {
            var parser = RESPParser(limits: Self.limits)
            var thrown: RESPParseError?
            do {
                _ = try parser.parse(Array(bytes[..<split]))
                _ = try parser.parse(Array(bytes[split...]))
            } catch {
                thrown = error
            }
            #expect(thrown?.code == testCase.code, "split at \(split)")
            #expect(thrown?.offset == testCase.offset, "split at \(split)")
        }
    }

    @Test func anIntegerBeyond64BitsIsMalformed() {
        var parser = RESPParser()
        #expect(throws: RESPParseError.self) { try parser.parse(Array(":9223372036854775808\r\n".utf8)) }
    }

    @Test func aParserThatFailedKeepsFailingUntilReset() throws {
        var parser = RESPParser(limits: Self.limits)
        #expect(throws: RESPParseError.self) { try parser.parse(Array("$9\r\n".utf8)) }
        #expect(throws: RESPParseError.self) { try parser.parse(Array("+OK\r\n".utf8)) }
        parser.reset()
        #expect(try parser.parse(Array("+OK\r\n".utf8)) == [.simpleString("OK")])
    }

    @Test func valuesBeforeAViolationAreHandedOutFirst() {
        var parser = RESPParser(limits: Self.limits)
        var values: [RESPValue] = []
        let bytes = Array(":1\r\n:2\r\n$9\r\n".utf8)
        #expect(throws: RESPParseError.self) {
            try bytes.withUnsafeBytes { raw in try parser.parse(raw) { values.append($0) } }
        }
        #expect(values == [.integer(1), .integer(2)])
    }

    @Test func aHugeDeclaredCountReservesNothingBeforeItsElementsArrive() throws {
        var parser = RESPParser()
        #expect(try parser.parse(Array("*1000000\r\n".utf8)) == [])
        #expect(throws: RESPParseError.self) { try parser.parse(Array("*2000000\r\n".utf8)) }
    }
}
