import ResolveKitRedis
import Testing

struct RedisURLTests {
    @Test(arguments: [
        ("redis://127.0.0.1", RedisURL(address: .tcp(host: "127.0.0.1", port: 6379))),
        ("redis://localhost:7000/3", RedisURL(address: .tcp(host: "localhost", port: 7000), database: 3)),
        ("REDIS://[::1]:6380", RedisURL(address: .tcp(host: "::1", port: 6380))),
        (
            "redis://alice:s%40cret@h:1/2",
            RedisURL(address: .tcp(host: "h", port: 1), user: "alice", password: "s@cret", database: 2)
        ),
        ("redis://:only@h", RedisURL(address: .tcp(host: "h", port: 6379), password: "only")),
        ("redis://h/", RedisURL(address: .tcp(host: "h", port: 6379))),
        ("unix:///run/redis.sock", RedisURL(address: .unix(path: "/run/redis.sock"))),
        ("unix:///run/redis.sock?db=4", RedisURL(address: .unix(path: "/run/redis.sock"), database: 4)),
        (
            "unix://bob:pw@/tmp/r.sock?db=1",
            RedisURL(address: .unix(path: "/tmp/r.sock"), user: "bob", password: "pw", database: 1)
        ),
    ])
    func aURLParsesToItsParts(text: String, expected: RedisURL) throws {
        #expect(try RedisURL(parsing: text) == expected)
    }

    @Test(arguments: [
        ("http://h", "starts with redis://"),
        ("rediss://h", "TLS proxy"),
        ("redis://", "no host"),
        ("redis://h:0", "outside 1–65535"),
        ("redis://h:99999", "outside 1–65535"),
        ("redis://h:port", "'port' is not a number"),
        ("redis://h/db", "'db' is not a number"),
        ("redis://h?db=1", "no query"),
        ("redis://::1:6379", "brackets"),
        ("redis://[::1", "closing ]"),
        ("redis://secret@h", "needs a colon"),
        ("redis://u:%zz@h", "two hex digits"),
        ("unix://host/path", "has no host"),
        ("unix://", "absolute socket path"),
        ("unix:///s?password=x", "only ?db=N"),
    ])
    func aBadURLIsATypedErrorSayingWhatIsWrong(text: String, fragment: String) {
        let error = #expect(throws: RedisError.self) { try RedisURL(parsing: text) }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test func theDescriptionHidesThePassword() throws {
        let url = try RedisURL(parsing: "redis://alice:hunter2@127.0.0.1:6379/1")
        #expect(url.description == "redis://alice:***@127.0.0.1:6379/1")
        #expect(!"\(url)".contains("hunter2"))
        #expect(!String(reflecting: url).contains("hunter2"))
        let configuration = RedisConfiguration(url: url)
        #expect(!"\(configuration)".contains("hunter2"))
        #expect(!String(reflecting: configuration).contains("hunter2"))
        let bad = #expect(throws: RedisError.self) { try RedisURL(parsing: "redis://u:hunter2%zz@h") }
        #expect(bad.map { !"\($0)".contains("hunter2") } == true)
    }
}
