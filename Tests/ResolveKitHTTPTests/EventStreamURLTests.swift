import ResolveKitHTTP
import Testing

struct EventStreamURLTests {
    @Test(
        arguments: [
            ("https://h/v1/sessions/s/events", nil, "https://h/v1/sessions/s/events"),
            ("https://h/e", "1795312329875-0", "https://h/e?cursor=1795312329875-0"),
            ("https://h/e?x=1", "7", "https://h/e?x=1&cursor=7"),
            ("https://h/e?", "7", "https://h/e?cursor=7"),
            ("https://h/e?x=1&", "7", "https://h/e?x=1&cursor=7"),
            ("https://h/e", "a b&c=d/é", "https://h/e?cursor=a%20b%26c%3Dd%2F%C3%A9"),
        ] as [(String, String?, String)])
    func theCursorIsAppendedAsAPercentEncodedQueryParameter(url: String, cursor: String?, expected: String) {
        #expect(EventStream.url(url, cursor: cursor) == expected)
    }
}
