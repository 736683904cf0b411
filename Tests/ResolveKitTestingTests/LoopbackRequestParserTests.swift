import Testing

@testable import ResolveKitTesting

struct LoopbackRequestParserTests {
    static let request = Array(
        "POST /a?b=c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n".utf8
    )

    private func parseAll(_ pieces: [ArraySlice<UInt8>]) -> [LoopbackRequestParser.Outcome] {
        var parser = LoopbackRequestParser()
        var outcomes: [LoopbackRequestParser.Outcome] = []
        for piece in pieces {
            parser.append(piece)
            while case let outcome = parser.next(), outcome != .needMore { outcomes.append(outcome) }
        }
        return outcomes
    }

    @Test func aChunkedRequestParsesTheSameWhereverTheBytesAreSplit() {
        for split in 0...Self.request.count {
            let outcomes = parseAll([Self.request[..<split], Self.request[split...]])
            guard outcomes.count == 1, case .request(let method, let target, _, let body, let keepAlive) = outcomes[0]
            else {
                Issue.record("split at \(split) gave \(outcomes)")
                continue
            }
            #expect(method == "POST" && target == "/a?b=c" && keepAlive)
            #expect(body == Array("abcde".utf8))
        }
    }

    @Test func aTLSHandshakeIsRefusedAtItsFirstByteWithoutWaitingForAHead() {
        // The start of a TLS ClientHello: a handshake record (0x16), version 3.1, then the length.
        var parser = LoopbackRequestParser()
        parser.append([0x16, 0x03, 0x01, 0x02, 0x00])
        #expect(parser.next() == .failure(status: 400, reason: "Bad Request"))
    }

    @Test func pipelinedRequestsComeOutOneByOne() {
        let bytes = Array(
            "GET /1 HTTP/1.1\r\n\r\nPOST /2 HTTP/1.0\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\n\r\n".utf8)
        let targets = parseAll([bytes[...]]).compactMap { outcome -> String? in
            guard case .request(_, let target, _, _, _) = outcome else { return nil }
            return target
        }
        #expect(targets == ["/1", "/2", "/3"])
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true),
        ("GET / HTTP/1.1\r\n\r\n", true),
    ])
    func keepAliveFollowsTheVersionAndConnectionHeader(text: String, keepAlive: Bool) {
        guard case .request(_, _, _, _, let parsed) = parseAll([Array(text.utf8)[...]]).first else {
            Issue.record("no request")
            return
        }
        #expect(parsed == keepAlive)
    }

    @Test func expectContinueIsAnnouncedOnceBeforeTheBody() {
        var parser = LoopbackRequestParser()
        parser.append(Array("PUT / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(parser.next() == .needMore)
        let first = parser.takeContinue()
        let second = parser.takeContinue()
        #expect(first && !second)
        parser.append(Array("ok".utf8))
        guard case .request(_, _, _, let body, _) = parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(body == Array("ok".utf8))
    }

    @Test func aBodyOverTheLimitIsRefusedWith413() {
        var limits = LoopbackRequestParser.Limits()
        limits.maxBodyBytes = 4
        var parser = LoopbackRequestParser(limits: limits)
        parser.append(Array("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n".utf8))
        let outcome = parser.next()
        #expect(outcome == .failure(status: 413, reason: "Content Too Large"))
    }

    @Test(arguments: [
        ("  Bearer abc \t", "Bearer abc"), ("", ""), (" \t ", ""), ("é ", "é"), ("\t ü x\t", "ü x"), ("a", "a"),
    ])
    func headerValuesLoseOnlyTheirOuterSpacesAndTabs(raw: String, trimmed: String) {
        #expect(raw.trimmingSpaces == trimmed)
        #expect(raw[...].trimmingSpaces == trimmed)
    }
}
