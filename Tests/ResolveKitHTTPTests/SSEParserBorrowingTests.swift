import ResolveKitHTTP
import Testing

/// ``SSEParser/parseBorrowing(_:_:)``: the allocation-free form that lends each event's bytes.
struct SSEParserBorrowingTests {
    /// What a borrowing consumer copies out of each lent event.
    struct Lent: Equatable {
        var id: [UInt8]?
        var type: String
        var data: [UInt8]
    }

    static func lend(_ chunks: [ArraySlice<UInt8>]) -> [Lent] {
        var parser = SSEParser()
        var lent: [Lent] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { bytes in
                parser.parseBorrowing(bytes) { output in
                    guard case .event(let view) = output else { return }
                    let type = String(decoding: view.type, as: UTF8.self)
                    lent.append(Lent(id: view.id.map { Array($0) }, type: type, data: Array(view.data)))
                }
            }
        }
        return lent
    }

    @Test func lentEventsMatchOwnedEventsWhereverTheStreamIsSplit() {
        let bytes = Array(SSEFixtures.transcriptStream.utf8)
        let expected = SSEFixtures.transcriptOutputs.compactMap { output -> Lent? in
            guard case .event(let event) = output else { return nil }
            return Lent(id: event.id.map { Array($0.utf8) }, type: event.type, data: Array(event.data.utf8))
        }
        for chunks in SSEFixtures.splits(of: bytes, pairs: false) {
            #expect(Self.lend(chunks) == expected, "split at \(chunks[0].count)")
        }
    }

    @Test func multiLineDataAndDefaultsAreLentWhereverTheStreamIsSplit() {
        let bytes = Array("data: a\ndata: bc\n\nid\nevent:\ndata\n\n".utf8)
        let expected = [
            Lent(id: nil, type: "message", data: Array("a\nbc".utf8)), Lent(id: [], type: "message", data: []),
        ]
        for chunks in SSEFixtures.splits(of: bytes, pairs: true) {
            #expect(Self.lend(chunks) == expected, "chunks: \(chunks.map(\.count))")
        }
    }

    @Test func lentDataIsTheRawBytesWhileAnOwnedEventDecodesThem() {
        let bytes: [UInt8] = Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8)
        #expect(Self.lend([bytes[...]]).map(\.data) == [[UInt8(ascii: "a"), 0xFF, UInt8(ascii: "b")]])
        var parser = SSEParser()
        #expect(parser.parse(bytes) == [.event(SSEEvent(data: "a\u{FFFD}b"))])
    }
}
