import Glibc
import ResolveKitHTTP

/// `sse-parse`: throughput of SSE parsing over a ~32 MiB realistic body fed in 1, 16 and 64 KiB chunks, for our
/// ``SSEParser`` (lending each event's bytes, and building owned `SSEEvent` strings), a naive Foundation parser,
/// and the floor of merely finding every LF with `memchr`.
struct SSEParseWorkload: Workload {
    let name = "sse-parse"
    let summary =
        "SSE parsing throughput (MB/s): resolvekit (borrowed bytes, owned events) vs naive Foundation vs memchr floor"
    var corpusBytes = 32 << 20
    var chunkSizes = [1 << 10, 16 << 10, 64 << 10]
    var repetitions = 5

    enum Contender: String, CaseIterable {
        /// ``SSEParser/parseBorrowing(_:_:)``: the parser itself, each event's bytes lent to the consumer.
        case resolvekit
        /// ``SSEParser/parse(_:_:)``: an owned `SSEEvent` with `String` fields per event, as `EventStream` uses.
        case resolvekitEvents = "resolvekit-events"
        case naive, memchr
    }

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        let corpus = SSECorpus.generate(targetBytes: corpusBytes)
        log("sse-parse: corpus \(corpus.bytes.count) bytes, \(corpus.events) events")
        var rows: [Measurement] = []
        for chunk in chunkSizes {
            for contender in Contender.allCases {
                var best = Double.infinity
                for _ in 0..<(contender == .naive ? max(repetitions / 2, 1) : repetitions) {
                    let (count, elapsed) = CPUTime.measure { Self.measure(contender, corpus.bytes, chunk) }
                    let expected = contender == .memchr ? corpus.lineFeeds : corpus.events
                    guard count == expected else {
                        throw BenchFailure(message: "\(contender) counted \(count), expected \(expected)")
                    }
                    best = min(best, elapsed)
                }
                let throughput = Double(corpus.bytes.count) / 1e6 / best
                rows.append(
                    Measurement(
                        workload: name, contender: contender.rawValue, chunk: chunk, value: throughput, unit: "MB/s"))
                log("sse-parse: \(contender.rawValue) chunk \(chunk): \(Report.rounded(throughput)) MB/s")
            }
        }
        return rows
    }

    /// Parses `corpus` in `chunk`-sized pieces; returns the events found (LFs for `memchr`).
    static func measure(_ contender: Contender, _ corpus: [UInt8], _ chunk: Int) -> Int {
        corpus.withUnsafeBytes { all in
            var count = 0
            var checksum = 0
            var parser = SSEParser()
            var naive = NaiveSSEParser()
            var offset = 0
            while offset < all.count {
                let piece = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + chunk, all.count)])
                offset += piece.count
                switch contender {
                case .resolvekit:
                    parser.parseBorrowing(piece) { output in
                        guard case .event(let event) = output else { return }
                        count += 1
                        checksum &+= event.data.count
                    }
                case .resolvekitEvents:
                    parser.parse(piece) { output in
                        guard case .event(let event) = output else { return }
                        count += 1
                        checksum &+= event.data.utf8.count
                    }
                case .naive:
                    naive.feed(piece) { _, _, data in
                        count += 1
                        checksum &+= data.utf8.count
                    }
                case .memchr:
                    count += countLineFeeds(piece)
                }
            }
            return checksum == -1 ? 0 : count
        }
    }

    static func countLineFeeds(_ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        var position = 0
        while position < buffer.count, let hit = memchr(base + position, 0x0A, buffer.count - position) {
            count += 1
            position = UnsafeRawPointer(hit) - base + 1
        }
        return count
    }
}
