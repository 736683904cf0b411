import ResolveKitHTTP
import Testing

/// A refused connection while the environment names a proxy says which variable, since the address in libcurl's
/// words is then the proxy's, not the server's.
struct EnvironmentProxyTests {
    static func proxy(_ url: String, _ environment: [String: String]) -> String? {
        NetworkSettings.environmentProxy(for: url) { environment[$0] }
    }

    @Test func theVariableIsChosenAsLibcurlChoosesItAndShownWithoutItsCredentials() {
        #expect(
            Self.proxy("http://api.example.com", ["http_proxy": "http://u:pw@proxy:3128"])
                == "http_proxy=http://proxy:3128")
        // libcurl ignores HTTP_PROXY (a CGI program's environment can set it from a request header).
        #expect(Self.proxy("http://api.example.com", ["HTTP_PROXY": "http://proxy:3128"]) == nil)
        #expect(Self.proxy("https://api.example.com", ["HTTPS_PROXY": "proxy:3128"]) == "HTTPS_PROXY=http://proxy:3128")
        #expect(
            Self.proxy("https://api.example.com", ["https_proxy": "http://a:1", "ALL_PROXY": "socks5h://b:2"])
                == "https_proxy=http://a:1")
        #expect(Self.proxy("https://api.example.com", ["all_proxy": "socks5h://b:2"]) == "all_proxy=socks5h://b:2")
        #expect(Self.proxy("https://api.example.com", ["https_proxy": ""]) == nil)
        #expect(Self.proxy("https://api.example.com", ["https_proxy": "http://a:1", "no_proxy": " * "]) == nil)
        #expect(Self.proxy("https://api.example.com", [:]) == nil)
    }

    @Test func aRefusedConnectionNamesTheEnvironmentsProxy() {
        var failure = CurlFailure(code: 7, detail: "Failed to connect to 127.0.0.1 port 1 after 0 ms")
        failure.environmentProxy = "https_proxy=http://127.0.0.1:1"
        #expect(failure.error.code == .connectFailed)
        #expect(failure.error.message.contains("the proxy the environment names (https_proxy=http://127.0.0.1:1)"))
        failure.environmentProxy = nil
        #expect(!failure.error.message.contains("proxy"))
    }
}
