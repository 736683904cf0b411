import Testing

@testable import ResolveKitTesting

struct LoopbackRequestTargetTests {
    @Test(arguments: [
        ("/v1/sessions/abc/events", "/v1/sessions/abc/events", [:]),
        ("/v1/sessions/abc/events?cursor=3", "/v1/sessions/abc/events", ["cursor": "3"]),
        ("/a?b=c&d=e+f&g=%C3%A9&h", "/a", ["b": "c", "d": "e f", "g": "é", "h": ""]),
        ("/caf%C3%A9/é?x=1", "/caf%C3%A9/é", ["x": "1"]),
        ("/?", "/", [:]),
    ] as [(String, String, [String: String])])
    func theTargetSplitsIntoItsPathAndDecodedQuery(target: String, path: String, query: [String: String]) {
        let request = LoopbackRequest(method: "GET", target: target)
        #expect(request.path == path)
        #expect(request.query == query)
    }
}
