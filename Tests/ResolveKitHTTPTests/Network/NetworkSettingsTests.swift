import ResolveKitHTTP
import Testing

/// The settings' checks and mappings, without a network: CA locations, pins, proxy URLs, extra headers, redaction.
struct NetworkSettingsTests {
    typealias Location = NetworkSettings.Prepared.Location

    @Test(arguments: [
        (NetworkSettings.Trust.system, Location.keep, Location.keep),
        (.adding(caFile: "/c/ca.pem"), .set("/c/ca.pem"), .set("/etc/ssl/certs")),
        (.adding(caDirectory: "/c/cas"), .keep, .set("/c/cas:/etc/ssl/certs")),
        (.adding(caFile: "/c/ca.pem", caDirectory: "/c/cas"), .set("/c/ca.pem"), .set("/c/cas:/etc/ssl/certs")),
        (.only(caFile: "/c/ca.pem"), .set("/c/ca.pem"), .clear),
        (.only(caDirectory: "/c/cas"), .clear, .set("/c/cas")),
    ])
    func trustMapsToLibcurlsCAFileAndFolderKeepingTheSystemStoreWhenAdding(
        trust: NetworkSettings.Trust, file: Location, path: Location
    ) throws {
        let locations = try NetworkSettings.locations(for: trust, systemFolder: "/etc/ssl/certs")
        #expect(locations.file == file)
        #expect(locations.path == path)
    }

    @Test(arguments: [
        NetworkSettings.Trust.only(), .adding(caDirectory: "/a:b"), .adding(caFile: ""),
    ])
    func trustThatCannotWorkIsRefusedBeforeAnythingIsSent(trust: NetworkSettings.Trust) {
        let error = #expect(throws: HTTPError.self) {
            try NetworkSettings.locations(for: trust, systemFolder: "/etc/ssl/certs")
        }
        #expect(error?.code == .invalidSettings)
    }

    @Test func addingACAFileWithoutASystemFolderIsRefusedRatherThanDroppingTheSystemStore() {
        let error = #expect(throws: HTTPError.self) {
            try NetworkSettings.locations(for: .adding(caFile: "/c/ca.pem"), systemFolder: nil)
        }
        #expect(error?.code == .invalidSettings)
    }

    @Test func aPinIsSha256AndTheBase64OfThirtyTwoBytes() throws {
        let pin = try NetworkSettings.PublicKeyPin("sha256//" + String(repeating: "A", count: 43) + "=")
        #expect(pin.rawValue.hasPrefix("sha256//"))
        for bad in ["", "sha256//", "sha1//AAAA=", "sha256//" + String(repeating: "A", count: 44), "sha256//A=A="] {
            #expect(throws: HTTPError.self) { try NetworkSettings.PublicKeyPin(bad) }
        }
    }

    @Test(arguments: [
        "http://proxy:3128", "https://proxy.corp:443", "socks5h://127.0.0.1:1080", "SOCKS5://proxy:1080",
    ])
    func proxyURLsOfTheFourSchemesAreTaken(url: String) throws {
        try NetworkSettings.checkProxyURL(url)
    }

    @Test func aProxyURLWithCredentialsIsRefusedWithoutQuotingThem() {
        let error = #expect(throws: HTTPError.self) {
            try NetworkSettings.checkProxyURL("http://alice:s3cret-word@proxy:3128")
        }
        #expect(error?.code == .invalidSettings)
        #expect(error?.description.contains("s3cret-word") == false)
        #expect(throws: HTTPError.self) { try NetworkSettings.checkProxyURL("ftp://proxy:21") }
        #expect(throws: HTTPError.self) { try NetworkSettings.checkProxyURL("proxy:3128") }
    }

    @Test(arguments: [
        "Authorization", "authorization", "X-Resolvekit-Chat-Capability", "Proxy-Authorization", "Host", "Accept",
        "Bad Name", "",
    ])
    func extraHeadersNeverReplaceTheRequestsOwnOrProtectedOnes(name: String) {
        let request: HTTPHeaders = ["Authorization": "Bearer key", "Accept": "application/json"]
        let error = #expect(throws: HTTPError.self) {
            try NetworkSettings.check(.init(name: name, value: "gateway-secret"), addedTo: request)
        }
        #expect(error?.code == .headerNotAllowed)
        #expect(error?.description.contains("gateway-secret") == false)
    }

    @Test func anExtraHeaderValueWithALineBreakIsRefused() {
        #expect(throws: HTTPError.self) {
            try NetworkSettings.check(.init(name: "X-Tenant", value: "a\r\nAuthorization: x"), addedTo: [:])
        }
    }

    @Test func aNewHeaderIsTaken() throws {
        try NetworkSettings.check(.init(name: "X-Gateway-Token", value: "t"), addedTo: ["Accept": "*/*"])
    }

    @Test(arguments: [
        ("https://alice:pw@host:8443/v1/x?token=abc&cursor=17#frag", "https://host:8443/v1/x?token=…&cursor=17"),
        ("https://host/v1/sessions/S/events?cursor=1-0", "https://host/v1/sessions/S/events?cursor=1-0"),
        ("http://host?api_key=k&locale=de", "http://host?api_key=…&locale=de"),
        ("https://host/path", "https://host/path"),
        ("not a url", "<unparsable URL>"),
    ])
    func redactedURLsLoseUserInfoFragmentsAndQueryValuesThatMayBeSecrets(url: String, expected: String) {
        #expect(RedactedURL.redact(url) == expected)
    }
}
