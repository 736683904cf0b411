import ResolveKitHTTP
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HTTPClientBasicsTests {
    static let echo: LoopbackHandler = { request in
        var headers: [(name: String, value: String)] = [("X-Method", request.method), ("X-Target", request.target)]
        if let type = request.header("Content-Type") { headers.append(("X-Content-Type", type)) }
        if let custom = request.header("X-Custom") { headers.append(("X-Echo-Custom", custom)) }
        return LoopbackResponse(status: 200, headers: headers, body: .bytes(request.body))
    }

    @Test func getReturnsStatusHeadersAndBody() async throws {
        try await LoopbackHTTPServer.withServer(handler: { _ in
            LoopbackResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .bytes(Array("hello".utf8)))
        }) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL + "/greeting"))
                #expect(response.status == 200)
                #expect(response.httpVersion == .http1_1)
                #expect(response.headers["content-type"] == "text/plain")
                #expect(try await response.body.collect(upTo: 100) == Array("hello".utf8))
            }
        }
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func methodsWithBodiesSendTheirBytesAndHeaders(method: HTTPMethod) async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            try await HTTPClient.withClient { client in
                let request = HTTPRequest(
                    method: method, url: server.baseURL + "/items?x=1",
                    headers: ["Content-Type": "application/json", "X-Custom": "yes"], body: Array(#"{"a":1}"#.utf8))
                let response = try await client.send(request)
                #expect(response.status == 200)
                #expect(response.headers["X-Method"] == method.rawValue)
                #expect(response.headers["X-Target"] == "/items?x=1")
                #expect(response.headers["X-Content-Type"] == "application/json")
                #expect(response.headers["X-Echo-Custom"] == "yes")
                #expect(response.body == Array(#"{"a":1}"#.utf8))
            }
        }
    }

    /// Requests one after the other run on the same reused libcurl handle: none may inherit an option of the one
    /// before (its method, body, headers or deadline).
    @Test func aRequestCarriesNothingOfTheRequestBeforeIt() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            try await HTTPClient.withClient { client in
                let requests = [
                    HTTPRequest(
                        method: .put, url: server.baseURL + "/a",
                        headers: ["Content-Type": "application/json", "X-Custom": "yes"], body: Array("{}".utf8),
                        timeout: .seconds(30)),
                    HTTPRequest(url: server.baseURL + "/b"),
                    HTTPRequest(method: .delete, url: server.baseURL + "/c"),
                    HTTPRequest(url: server.baseURL + "/d"),
                ]
                var seen: [String] = []
                for request in requests {
                    let response = try await client.send(request)
                    let custom = response.headers["X-Echo-Custom"] ?? "-"
                    let type = response.headers["X-Content-Type"] ?? "-"
                    seen.append("\(response.headers["X-Method"] ?? "") \(custom) \(type) \(response.body.count)")
                }
                #expect(seen == ["PUT yes application/json 2", "GET - - 0", "DELETE - - 0", "GET - - 0"])
            }
        }
    }

    /// Each header reaches the server as written (one with an empty value too), and a large body goes out without
    /// an `Expect: 100-continue` round trip first.
    @Test func headersArriveAsWrittenAndALargeBodyWithoutExpect() async throws {
        let long = String(repeating: "v", count: 3000)
        try await LoopbackHTTPServer.withServer(handler: { request in
            let seen = request.headers.filter { $0.name.hasPrefix("X-") || $0.name == "Expect" }
            let text = seen.map { "\($0.name)=\($0.value.count > 20 ? "\($0.value.count) bytes" : $0.value)" }
            return LoopbackResponse(
                status: 200, headers: [("X-Seen", text.joined(separator: ","))],
                body: .bytes(Array(String(request.body.count).utf8)))
        }) { server in
            try await HTTPClient.withClient { client in
                let request = HTTPRequest(
                    method: .post, url: server.baseURL + "/upload",
                    headers: ["X-Empty": "", "X-Long": long, "X-Plain": "a: b; c"],
                    body: Array(repeating: UInt8(ascii: "x"), count: 2 * 1024 * 1024), timeout: .seconds(20))
                let response = try await client.send(request)
                #expect(response.headers["X-Seen"] == "X-Empty=,X-Long=3000 bytes,X-Plain=a: b; c")
                #expect(response.body == Array(String(2 * 1024 * 1024).utf8))
            }
        }
    }

    @Test func aBodyWithoutContentTypeIsNotLabelledAsAForm() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.send(
                    HTTPRequest(method: .post, url: server.baseURL, body: Array("raw".utf8)))
                #expect(response.headers["X-Content-Type"] == nil)
                #expect(response.body == Array("raw".utf8))
            }
        }
    }

    @Test func anEmptyPostSendsAZeroLengthBody() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.send(HTTPRequest(method: .post, url: server.baseURL, body: []))
                #expect(response.headers["X-Method"] == "POST")
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        try await LoopbackHTTPServer.withServer(handler: Self.echo) { server in
            try await HTTPClient.withClient { client in
                for index in 0..<5 {
                    let response = try await client.send(
                        HTTPRequest(method: .post, url: server.baseURL, body: Array("\(index)".utf8)))
                    #expect(response.body == Array("\(index)".utf8))
                }
                #expect(server.connectionCount == 1)
                #expect(server.requestCount == 5)
            }
        }
    }

    @Test func redirectsAreNotFollowedByDefaultButCanBe() async throws {
        let handler: LoopbackHandler = { request in
            if request.path == "/old" {
                return LoopbackResponse(status: 302, headers: [("Location", "/new")], body: .bytes(Array("moved".utf8)))
            }
            return LoopbackResponse(status: 200, body: .bytes(Array("new place".utf8)))
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let direct = try await client.send(HTTPRequest(url: server.baseURL + "/old"))
                #expect(direct.status == 302)
                #expect(direct.headers["Location"] == "/new")
                let followed = try await client.send(HTTPRequest(url: server.baseURL + "/old", followRedirects: true))
                #expect(followed.status == 200)
                #expect(followed.body == Array("new place".utf8))
            }
        }
    }
}
