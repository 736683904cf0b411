import ResolveKitHTTP
import Testing

struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndReturnsTheFirstValue() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "set-cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Set-Cookie"] == "a=1")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["Missing"] == nil)
    }

    @Test func fieldsKeepTheirOrderAndSpelling() {
        var headers = HTTPHeaders()
        headers.add(name: "X-B", value: "2")
        headers.add(name: "x-a", value: "1")
        #expect(headers.map(\.name) == ["X-B", "x-a"])
        #expect(headers.count == 2)
    }

    @Test func replaceOrAddLeavesOneField() {
        var headers: HTTPHeaders = ["Accept": "a", "accept": "b", "Other": "c"]
        headers.replaceOrAdd(name: "ACCEPT", value: "text/event-stream")
        #expect(headers.values(for: "accept") == ["text/event-stream"])
        headers.replaceOrAdd(name: "Accept", value: nil)
        #expect(!headers.contains(name: "accept"))
        #expect(headers.map(\.name) == ["Other"])
    }

    /// Names match in any case, whatever their length, without matching a prefix, a longer name or a neighbour
    /// letter; a name with non-ASCII letters still matches case-insensitively.
    @Test(arguments: [
        ("X-Resolvekit-Chat-Capability", "x-resolvekit-chat-capability", true),
        ("ACCEPT", "accept", true),
        ("Accept", "Accep", false),
        ("Accep", "Accept", false),
        ("X-[", "x-{", false),
        ("X-@", "x-`", false),
        ("X-Ünïcode", "x-üNÏCODE", true),
        ("X-Ünïcode", "x-unicode", false),
        ("", "", true),
    ])
    func namesMatchInAnyCase(name: String, lookup: String, matches: Bool) {
        let headers: HTTPHeaders = [name: "value"]
        #expect((headers[lookup] == "value") == matches)
        #expect(headers.contains(name: lookup) == matches)
    }
}
