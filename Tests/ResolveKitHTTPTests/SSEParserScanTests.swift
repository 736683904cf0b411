import ResolveKitHTTP
import Testing

/// The vector line-end scan and the event-type cache: whole inputs in one chunk, so long lines take the 32- and
/// 16-byte paths and the line end falls at every offset inside a vector.
struct SSEParserScanTests {
    @Test(arguments: ["\n", "\r", "\r\n"])
    func findsTheLineEndAtEveryOffsetOfALongLine(_ lineEnd: String) {
        for length in 0..<100 {
            let value = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            let input = "data: \(value)\(lineEnd)data:\(value)é\(lineEnd)\(lineEnd)"
            var parser = SSEParser()
            let expected = SSEParser.Output.event(SSEEvent(data: "\(value)\n\(value)é"))
            #expect(parser.parse(Array(input.utf8)) == [expected], "length \(length)")
        }
    }

    @Test func aCROrLFInsideAVectorEndsTheLineThere() {
        let input = "data: 0123456789abcdef0123456789\rdata: x\ndata: 0123456789abcdef01\r\n\r\n"
        var parser = SSEParser()
        let expected = SSEParser.Output.event(SSEEvent(data: "0123456789abcdef0123456789\nx\n0123456789abcdef01"))
        #expect(parser.parse(Array(input.utf8)) == [expected])
    }

    @Test func manyDistinctAndLongEventTypesKeepTheirNames() {
        let types = (0..<20).map { "type\($0)" } + [String(repeating: "t", count: 31), String(repeating: "u", count: 40)]
        var input = ""
        for round in 0..<3 {
            for type in types { input += "event: \(type)\ndata: \(round)\n\n" }
        }
        var parser = SSEParser()
        let expected = (0..<3).flatMap { round in
            types.map { SSEParser.Output.event(SSEEvent(type: $0, data: "\(round)")) }
        }
        #expect(parser.parse(Array(input.utf8)) == expected)
    }

    @Test func fieldNamesThatOnlyStartLikeKnownOnesAreIgnored() {
        let input = "dat: a\ndatas: b\nidx: c\nevents: d\nretry2: 5\nretry: 7\ndata: ok\n\n"
        var parser = SSEParser()
        #expect(parser.parse(Array(input.utf8)) == [.event(SSEEvent(data: "ok", retry: 7))])
    }
}
