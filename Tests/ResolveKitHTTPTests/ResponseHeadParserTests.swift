import Testing

@testable import ResolveKitHTTP

struct ResponseHeadParserTests {
    private func feed(_ lines: [String], followsRedirects: Bool = false) -> (ResponseHeadParser, completedAt: Int?) {
        var parser = ResponseHeadParser(followsRedirects: followsRedirects)
        var completedAt: Int?
        for (index, line) in lines.enumerated() where parser.take(line: Array(line.utf8)) {
            completedAt = index
        }
        return (parser, completedAt)
    }

    @Test func aFinalHeadCompletesAtItsEmptyLine() {
        let (parser, completedAt) = feed([
            "HTTP/1.1 201 Created\r\n", "Content-Type: text/plain\r\n", "X-A:  b \r\n", "\r\n",
        ])
        #expect(completedAt == 3)
        #expect(parser.partialHead?.status == 201)
        #expect(parser.partialHead?.version == .http1_1)
        #expect(parser.headers["content-type"] == "text/plain")
        #expect(parser.headers["X-A"] == "b ")
    }

    @Test func linesAfterTheFinalHeadAreTrailersAndLeaveTheHeadAlone() {
        let (parser, completedAt) = feed([
            "HTTP/2 200\r\n", "content-type: application/grpc\r\n", "\r\n", "grpc-status: 14\r\n",
            "grpc-message: try%20later\r\n", "\r\n",
        ])
        #expect(completedAt == 2)
        #expect(parser.headers.count == 1)
        #expect(parser.trailers["grpc-status"] == "14")
        #expect(parser.trailers["grpc-message"] == "try%20later")
        #expect(parser.trailers.count == 2)
    }

    @Test func interimHeadsAreSkipped() {
        let (parser, completedAt) = feed([
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n",
        ])
        #expect(completedAt == 4)
        #expect(parser.partialHead?.status == 200)
        #expect(parser.headers.count == 1)
    }

    @Test func followedRedirectHeadsAreSkippedOnlyWhenFollowing() {
        let lines = ["HTTP/2 302\r\n", "location: /x\r\n", "\r\n", "HTTP/2 200\r\n", "\r\n"]
        #expect(feed(lines, followsRedirects: true).completedAt == 4)
        #expect(feed(lines, followsRedirects: true).0.partialHead?.version == .http2)
        #expect(feed(lines, followsRedirects: false).completedAt == 2)
    }

    @Test func aFieldSplitsAtItsFirstColonAndKeepsItsValuesBytes() {
        let (parser, completedAt) = feed([
            "HTTP/1.1 200 OK\r\n", "Location: http://x:8080/a\r\n", "X-Name:\tJosé\n", "no colon here\r\n",
            " folded continuation\r\n", "X-Empty:\r\n", "\r\n",
        ])
        #expect(completedAt == 6)
        #expect(parser.headers["location"] == "http://x:8080/a")
        #expect(parser.headers["x-name"] == "José")
        #expect(parser.headers["x-empty"] == "")
        #expect(parser.headers.count == 3)
    }

    @Test func trailersAfterTheHeadAreIgnored() {
        let (parser, completedAt) = feed(["HTTP/1.1 200 OK\r\n", "\r\n", "X-Trailer: 1\r\n", "\r\n"])
        #expect(completedAt == 1)
        #expect(!parser.headers.contains(name: "X-Trailer"))
    }
}
