import ResolveKitHTTP
import Testing

struct SSEParserLimitTests {
    static let limits = SSEParser.Limits(maxLineLength: 16, maxEventDataSize: 20)

    @Test func anOverlongLineIsReportedWithItsLimitAndSize() {
        var parser = SSEParser(limits: Self.limits)
        let outputs = parser.parse(Array("data: 0123456789abcdef\n\ndata: ok\n\n".utf8))
        #expect(outputs == [.failure(SSEError(code: .lineTooLong, limit: 16, size: 22)), .event(SSEEvent(data: "ok"))])
    }

    @Test func anOverlongLineSkipsTheRestOfItsEventWhereverItIsSplit() {
        let input = "id: 1\ndata: a\ndata: 0123456789abcdefghij\ndata: b\n\ndata: ok\n\n"
        let expected: [SSEParser.Output] = [
            .failure(SSEError(code: .lineTooLong, limit: 16, size: 0)), .event(SSEEvent(data: "ok")),
        ]
        for chunks in SSEFixtures.splits(of: Array(input.utf8), pairs: true) {
            let outputs = SSEFixtures.withoutSizes(SSEFixtures.parse(chunks, limits: Self.limits))
            #expect(outputs == expected, "chunks: \(chunks.map(\.count))")
        }
    }

    @Test func aLineAtTheLimitIsAccepted() {
        var parser = SSEParser(limits: Self.limits)
        #expect(parser.parse(Array("data: 0123456789\n\n".utf8)) == [.event(SSEEvent(data: "0123456789"))])
    }

    @Test func anOversizeEventIsReportedAndTheNextEventArrives() {
        let input = "data: 0123456789\ndata: 0123456789\ndata: x\n\ndata: ok\n\n"
        let expected: [SSEParser.Output] = [
            .failure(SSEError(code: .eventTooLarge, limit: 20, size: 21)), .event(SSEEvent(data: "ok")),
        ]
        for chunks in SSEFixtures.splits(of: Array(input.utf8), pairs: true) {
            #expect(SSEFixtures.parse(chunks, limits: Self.limits) == expected, "chunks: \(chunks.map(\.count))")
        }
    }

    @Test func anEventExactlyAtTheDataLimitIsAccepted() {
        var parser = SSEParser(limits: SSEParser.Limits(maxLineLength: 64, maxEventDataSize: 21))
        let outputs = parser.parse(Array("data: 0123456789\ndata: 0123456789\n\n".utf8))
        #expect(outputs == [.event(SSEEvent(data: "0123456789\n0123456789"))])
    }

    @Test func memoryHeldForAnOverlongLineIsBoundedByTheLimit() {
        var parser = SSEParser(limits: Self.limits)
        var failures = 0
        for _ in 0..<1000 {
            for output in parser.parse(Array(repeating: UInt8(ascii: "a"), count: 10)) {
                if case .failure = output { failures += 1 }
            }
        }
        #expect(failures == 1)
        #expect(parser.parse(Array("\n\ndata: ok\n\n".utf8)) == [.event(SSEEvent(data: "ok"))])
    }

    /// Found by the SSEParser fuzz target: the data limit was checked against the raw bytes, so invalid UTF-8
    /// (each byte decoded to a 3-byte U+FFFD) let an event's data grow to three times the limit.
    @Test func theDataLimitCountsDecodedBytesSoInvalidUTF8CannotTripleAnEvent() {
        var parser = SSEParser(limits: Self.limits)
        let input = Array("data: ".utf8) + Array(repeating: 0xFF, count: 10) + Array("\n\ndata: ok\n\n".utf8)
        let expected: [SSEParser.Output] = [
            .failure(SSEError(code: .eventTooLarge, limit: 20, size: 30)), .event(SSEEvent(data: "ok")),
        ]
        #expect(parser.parse(input) == expected)
    }
}
