import Testing

@testable import ResolveKitTelemetry

struct HTTPResponseReaderTests {
    static let chunked = Array(
        ("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\nbusy\r\n3;ext=1\r\n!!!\r\n0\r\nTrailer: x\r\n\r\n").utf8)
    static let sized = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}".utf8)

    static func read(_ pieces: [ArraySlice<UInt8>]) -> HTTPResponseReader.Output {
        var reader = HTTPResponseReader()
        var output = HTTPResponseReader.Output.needMore
        for piece in pieces where output == .needMore { output = reader.feed(piece) }
        return output == .needMore ? reader.endOfInput() : output
    }

    @Test func aChunkedAnswerSplitAtEveryTwoBoundariesReadsTheSame() {
        let expected = HTTPResponseReader.Output.complete(
            status: 503, retryAfter: "7", body: Array("busy!!!".utf8), keepAlive: true)
        let bytes = Self.chunked
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let output = Self.read([bytes[..<first], bytes[first..<second], bytes[second...]])
                #expect(output == expected, "split at \(first), \(second)")
            }
        }
    }

    @Test func aSizedAnswerSplitAtEveryBoundaryReadsTheSame() {
        let bytes = Self.sized
        for first in 0...bytes.count {
            #expect(
                Self.read([bytes[..<first], bytes[first...]])
                    == .complete(status: 200, retryAfter: nil, body: Array("{}".utf8), keepAlive: true))
        }
    }

    @Test func anAnswerWithoutLengthRunsToTheEndOfTheConnection() {
        let bytes = Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nno".utf8)
        #expect(
            Self.read([bytes[...]]) == .complete(status: 400, retryAfter: nil, body: Array("no".utf8), keepAlive: false)
        )
    }

    @Test func anInterimContinueIsSkipped() {
        let bytes = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8)
        #expect(Self.read([bytes[...]]) == .complete(status: 204, retryAfter: nil, body: [], keepAlive: true))
    }

    @Test(arguments: [
        "SMTP ready\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func brokenAnswersFail(text: String) {
        guard case .failed = Self.read([Array(text.utf8)[...]]) else {
            Issue.record("\(text.debugDescription) was read")
            return
        }
    }

    @Test func anOversizedHeadFails() {
        let head = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 20_000)
        guard case .failed = Self.read([Array(head.utf8)[...]]) else {
            Issue.record("an endless head was accepted")
            return
        }
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDate() {
        #expect(RetryAfter.delay("7", nowUnixSeconds: 0) == .seconds(7))
        #expect(RetryAfter.delay(" 120 ", nowUnixSeconds: 0) == .seconds(120))
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        #expect(RetryAfter.delay(date, nowUnixSeconds: 1_445_412_470) == .seconds(10))
        #expect(RetryAfter.delay(date, nowUnixSeconds: 1_445_412_490) == .zero, "a date past is no wait")
        #expect(RetryAfter.delay("soon", nowUnixSeconds: 0) == nil)
        #expect(RetryAfter.delay("-3", nowUnixSeconds: 0) == nil)
        #expect(RetryAfter.delay(nil, nowUnixSeconds: 0) == nil)
    }
}
