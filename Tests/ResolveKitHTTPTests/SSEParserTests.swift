import ResolveKitHTTP
import Testing

struct SSEParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        var expected: [SSEParser.Output]
        var testDescription: String { name }
    }

    static func event(_ data: String, id: String? = nil, type: String = "message", retry: Int? = nil)
        -> SSEParser.Output
    {
        .event(SSEEvent(id: id, type: type, data: data, retry: retry))
    }

    static let cases: [Case] = [
        Case(
            name: "spec: multi-line data", input: "data: YHOO\ndata: +2\ndata: 10\n\n",
            expected: [event("YHOO\n+2\n10")]),
        Case(
            name: "spec: comment, ids and spaces",
            input: ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
            expected: [
                .comment("test stream"), event("first event", id: "1"), event("second event", id: ""),
                event(" third event"),
            ]),
        Case(
            name: "spec: empty data fields", input: "data\n\ndata\ndata\n\ndata:", expected: [event(""), event("\n")]),
        Case(
            name: "spec: space after colon is optional", input: "data:test\n\ndata: test\n\n",
            expected: [event("test"), event("test")]),
        Case(name: "CR line ends", input: "event: a\rdata: x\rdata: y\r\r", expected: [event("x\ny", type: "a")]),
        Case(name: "CRLF line ends", input: "id: 3\r\ndata: x\r\n\r\n", expected: [event("x", id: "3")]),
        Case(name: "mixed line ends", input: "data: a\r\ndata: b\rdata: c\n\r\n", expected: [event("a\nb\nc")]),
        Case(
            name: "CR CR is a line and a blank line", input: "data: a\r\rdata: b\n\n",
            expected: [event("a"), event("b")]),
        Case(name: "leading BOM is stripped", input: "\u{FEFF}data: a\n\n", expected: [event("a")]),
        Case(name: "only one BOM is stripped", input: "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n", expected: [event("b")]),
        Case(name: "BOM on a later line is data", input: "data: a\n\u{FEFF}data: b\n\n", expected: [event("a")]),
        Case(name: "id containing NUL is ignored", input: "id: a\u{0}b\ndata: x\n\n", expected: [event("x")]),
        Case(
            name: "retry with digits is reported", input: "retry: 1500\ndata: x\n\n",
            expected: [event("x", retry: 1500)]),
        Case(
            name: "retry with other characters is ignored", input: "retry: 15a\ndata: x\n\nretry: \ndata: y\n\n",
            expected: [event("x"), event("y")]),
        Case(
            name: "retry that overflows is ignored", input: "retry: 99999999999999999999\ndata: x\n\n",
            expected: [event("x")]),
        Case(name: "block without data is not dispatched", input: "id: 5\nevent: x\nretry: 7\n\n", expected: []),
        Case(name: "unknown fields are ignored", input: "foo: bar\nDATA: no\ndata: yes\n\n", expected: [event("yes")]),
        Case(name: "empty event type means message", input: "event:\ndata: x\n\n", expected: [event("x")]),
        Case(name: "only one leading space is removed", input: "data:   x  \n\n", expected: [event("  x  ")]),
        Case(name: "tab after colon is kept", input: "data:\tx\n\n", expected: [event("\tx")]),
        Case(name: "later colons belong to the value", input: "data: a: b:c\n\n", expected: [event("a: b:c")]),
        Case(name: "field names are case-sensitive", input: "Event: x\ndata: y\n\n", expected: [event("y")]),
        Case(
            name: "comments are surfaced", input: ": keep-alive\n\n:\n",
            expected: [.comment("keep-alive"), .comment("")]),
        Case(name: "UTF-8 survives any split", input: "data: héllo ✓ 🙂\n\n", expected: [event("héllo ✓ 🙂")]),
        Case(name: "unterminated event is not dispatched", input: "data: a\n\ndata: b\n", expected: [event("a")]),
        Case(
            name: "event type resets between events", input: "event: t\ndata: a\n\ndata: b\n\n",
            expected: [event("a", type: "t"), event("b")]),
    ]

    @Test(arguments: cases)
    func parsesTheSameWhereverTheInputIsSplitTwice(_ testCase: Case) {
        let bytes = Array(testCase.input.utf8)
        for chunks in SSEFixtures.splits(of: bytes, pairs: true) {
            #expect(SSEFixtures.parse(chunks) == testCase.expected, "chunks: \(chunks.map(\.count))")
        }
    }

    @Test func parsesTheTranscriptFramesWhereverTheyAreSplit() {
        let bytes = Array(SSEFixtures.transcriptStream.utf8)
        for chunks in SSEFixtures.splits(of: bytes, pairs: false) {
            #expect(SSEFixtures.parse(chunks) == SSEFixtures.transcriptOutputs, "split at \(chunks[0].count)")
        }
    }

    @Test(arguments: [1, 2, 3, 7, 64, 452, 4096])
    func parsesTheTranscriptFramesInFixedSizeChunks(_ size: Int) {
        let bytes = Array(SSEFixtures.transcriptStream.utf8)
        let chunks = stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
        #expect(SSEFixtures.parse(chunks) == SSEFixtures.transcriptOutputs)
    }

    @Test func lastEventIDPersistsAcrossEventsAndConnections() {
        var parser = SSEParser()
        #expect(
            parser.parse(Array("id: 7\ndata: a\n\ndata: b\n\n".utf8)) == [Self.event("a", id: "7"), Self.event("b")])
        #expect(parser.lastEventID == "7")
        parser.finish()
        _ = parser.parse(Array("id: 8\nevent: x\n\n".utf8))
        #expect(parser.lastEventID == "8")
        _ = parser.parse(Array("id\n\n".utf8))
        #expect(parser.lastEventID == "")
    }

    @Test func idOfAnUnfinishedBlockDoesNotBecomeTheLastEventID() {
        var parser = SSEParser()
        _ = parser.parse(Array("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        #expect(parser.finish() == true)
        #expect(parser.lastEventID == "1")
    }

    @Test func finishDiscardsTheUnterminatedEventAndStartsAFreshConnection() {
        var parser = SSEParser()
        #expect(parser.parse(Array("data: partial\n".utf8)).isEmpty)
        #expect(parser.finish() == true)
        #expect(parser.parse(Array("\u{FEFF}\ndata: next\n\n".utf8)) == [Self.event("next")])
        #expect(parser.finish() == false)
    }

    @Test func finishForgetsAPendingCarriageReturn() {
        var parser = SSEParser()
        _ = parser.parse(Array("data: a\r".utf8))
        parser.finish()
        #expect(parser.parse(Array("\ndata: b\n\n".utf8)) == [Self.event("b")])
    }

    @Test func retryUpdatesTheReconnectionTimeEvenWithoutAnEvent() {
        var parser = SSEParser()
        _ = parser.parse(Array("retry: 2500\n\n".utf8))
        #expect(parser.reconnectionTime == 2500)
    }
}
