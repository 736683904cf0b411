import Foundation
import ResolveKitCLI
import ResolveKitCLINetwork
import ResolveKitHTTP
import Testing

/// The network flags every tool that talks HTTP shares, joined with their `RESOLVEKIT_…` variables: a flag wins over
/// its variable, a variable over the default; secrets only come from files and never appear in an error.
struct NetworkOptionsTests {
    static let tool = CommandLineTool(name: "rk-net", summary: "s", usage: [], groups: [.network])
    static let pinA = "sha256//" + String(repeating: "A", count: 43) + "="
    static let pinB = "sha256//" + String(repeating: "B", count: 43) + "="

    /// A folder with a CA file, a CA folder, a certificate and key, and the secret files.
    struct Files {
        let folder: String
        var ca: String { folder + "/ca.pem" }
        var otherCA: String { folder + "/other-ca.pem" }
        var caFolder: String { folder + "/ca-folder" }
        var certificate: String { folder + "/client.pem" }
        var key: String { folder + "/client.key" }
        var passphrase: String { folder + "/passphrase" }
        var proxyPassword: String { folder + "/proxy-password" }
        var headers: String { folder + "/headers" }
        var empty: String { folder + "/empty" }

        static let passphraseText = "correct horse battery"
        static let proxyPasswordText = "pr0xy-s3cret"
        static let gatewayToken = "gw-token-0f3a"

        static func make() throws -> Files {
            let folder = FileManager.default.temporaryDirectory.appending(path: "rk-net-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder + "/ca-folder", withIntermediateDirectories: true)
            let files = Files(folder: folder)
            for path in [files.ca, files.otherCA, files.certificate, files.key, files.empty] {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
            }
            try Data((passphraseText + "\n").utf8).write(to: URL(fileURLWithPath: files.passphrase))
            try Data((proxyPasswordText + "\r\n").utf8).write(to: URL(fileURLWithPath: files.proxyPassword))
            try Data("# the gateway\nX-Gateway-Token: \(gatewayToken)\n\nX-Region: eu\n".utf8).write(
                to: URL(fileURLWithPath: files.headers))
            return files
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static func resolve(
        _ arguments: [String], _ environment: [String: String] = [:]
    ) throws -> NetworkOptions.Resolved {
        try NetworkOptions(tool.parse(arguments)).resolve(environment: environment)
    }

    @Test func withoutFlagsOrVariablesTheSettingsAreTheLibrarysDefaults() throws {
        let resolved = try Self.resolve([])
        #expect(resolved.settings.trust == .system)
        #expect(resolved.settings.clientIdentity == nil)
        #expect(resolved.settings.pinnedPublicKeys.isEmpty)
        guard case .environment = resolved.settings.proxy else {
            Issue.record("the proxy is not the environment's")
            return
        }
        #expect(resolved.settings.headers.isEmpty)
        #expect(resolved.settings.minimumTLSVersion == .tls1_2)
        #expect(resolved.settings.httpVersion == .automatic)
        #expect(resolved.settings.connectTimeout == nil)
        #expect(resolved.secrets.isEmpty)
        #expect(resolved.summary.isEmpty)
    }

    @Test func aFlagWinsOverItsVariableAndAVariableOverTheDefault() throws {
        let files = try Files.make()
        defer { files.remove() }
        let environment = [
            "RESOLVEKIT_CA_FILE": files.otherCA, "RESOLVEKIT_TLS_MIN": "1.3", "RESOLVEKIT_PINS": Self.pinB,
            "RESOLVEKIT_PROXY": "http://127.0.0.1:3128",
        ]
        let fromVariables = try Self.resolve([], environment)
        #expect(fromVariables.settings.trust == .adding(caFile: files.otherCA))
        #expect(fromVariables.settings.minimumTLSVersion == .tls1_3)
        #expect(fromVariables.settings.pinnedPublicKeys.map(\.rawValue) == [Self.pinB])
        guard case .server(let server) = fromVariables.settings.proxy else {
            Issue.record("RESOLVEKIT_PROXY did not set the proxy")
            return
        }
        #expect(server.url == "http://127.0.0.1:3128")

        let fromFlags = try Self.resolve(
            ["--ca-file", files.ca, "--tls-min", "1.2", "--pin", Self.pinA, "--proxy", "direct"], environment)
        #expect(fromFlags.settings.trust == .adding(caFile: files.ca))
        #expect(fromFlags.settings.minimumTLSVersion == .tls1_2)
        #expect(fromFlags.settings.pinnedPublicKeys.map(\.rawValue) == [Self.pinA], "a given --pin replaces the list")
        guard case .direct = fromFlags.settings.proxy else {
            Issue.record("--proxy direct did not win over RESOLVEKIT_PROXY")
            return
        }
    }

    @Test func listsComeFromRepeatedFlagsOrFromTheirVariableSplitAsDocumented() throws {
        let flags = try Self.resolve([
            "--pin", Self.pinA, "--pin=\(Self.pinB)", "--header", "X-Tenant: acme", "--header", "X-Region:eu",
        ])
        #expect(flags.settings.pinnedPublicKeys.map(\.rawValue) == [Self.pinA, Self.pinB])
        #expect(flags.settings.headers == ["X-Tenant": "acme", "X-Region": "eu"])
        let variables = try Self.resolve(
            [],
            [
                "RESOLVEKIT_PINS": " \(Self.pinA) ;\(Self.pinB);",
                "RESOLVEKIT_HEADERS": "X-Tenant: acme\r\nX-Region: eu\n",
            ])
        #expect(variables.settings.pinnedPublicKeys.map(\.rawValue) == [Self.pinA, Self.pinB])
        #expect(variables.settings.headers == ["X-Tenant": "acme", "X-Region": "eu"])
        #expect(variables.summary["headers"] == "X-Tenant,X-Region")
    }

    @Test func trustAddsToTheSystemStoreUnlessOnlyYourCAsAreAsked() throws {
        let files = try Files.make()
        defer { files.remove() }
        let adding = try Self.resolve(["--ca-file", files.ca, "--ca-dir", files.caFolder])
        #expect(adding.settings.trust == .adding(caFile: files.ca, caDirectory: files.caFolder))
        let only = try Self.resolve(["--ca-only", "--ca-dir", files.caFolder])
        #expect(only.settings.trust == .only(caDirectory: files.caFolder))
        let onlyByVariable = try Self.resolve(["--ca-file", files.ca], ["RESOLVEKIT_CA_ONLY": "yes"])
        #expect(onlyByVariable.settings.trust == .only(caFile: files.ca))
        let offByVariable = try Self.resolve(["--ca-file", files.ca], ["RESOLVEKIT_CA_ONLY": "0"])
        #expect(offByVariable.settings.trust == .adding(caFile: files.ca))
    }

    @Test func secretsAreReadFromTheirFilesAndListedForTheLogToRedact() throws {
        let files = try Files.make()
        defer { files.remove() }
        let resolved = try Self.resolve(
            [
                "--client-cert", files.certificate, "--client-key", files.key, "--client-key-passphrase-file",
                files.passphrase, "--proxy", "http://127.0.0.1:3128", "--proxy-user", "svc-agent",
                "--proxy-password-file", files.proxyPassword, "--no-proxy", "localhost, 10.0.0.0/8",
                "--header", "@" + files.headers, "--header", "X-Tenant: acme",
            ])
        let identity = try #require(resolved.settings.clientIdentity)
        #expect(identity.certificateFile == files.certificate)
        #expect(identity.keyFile == files.key)
        #expect(identity.passphrase?() == Files.passphraseText)
        guard case .server(let server) = resolved.settings.proxy else {
            Issue.record("--proxy did not set the proxy")
            return
        }
        #expect(server.credentials?()?.user == "svc-agent")
        #expect(server.credentials?()?.password == Files.proxyPasswordText, "the line break is not the password's")
        #expect(server.bypassHosts == ["localhost", "10.0.0.0/8"])
        #expect(
            resolved.settings.headers == ["X-Gateway-Token": Files.gatewayToken, "X-Region": "eu", "X-Tenant": "acme"])
        #expect(Set(resolved.secrets) == [Files.passphraseText, Files.proxyPasswordText, Files.gatewayToken, "eu"])
        let summary = resolved.summary.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        for secret in [Files.passphraseText, Files.proxyPasswordText, Files.gatewayToken] {
            #expect(!summary.contains(secret))
        }
        #expect(resolved.summary["proxy_user"] == "svc-agent")
        #expect(resolved.summary["headers"] == "X-Gateway-Token,X-Region,X-Tenant")
    }

    /// A header file's bad line is named by its number; its text, which may hold a token, is not shown.
    @Test func aBadLineOfAHeaderFileIsNamedByItsNumber() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "rk-headers-\(UUID().uuidString)").path
        try Data("# gateway\nX-Region: eu\n\nX-Token sk-secret-1\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: UsageError("--header @\(path):4 expects 'Name: value', e.g. 'X-Tenant: acme'")) {
            try Self.resolve(["--header", "@" + path])
        }
    }

    @Test func theTuningFlagsBecomeLibcurlsSettings() throws {
        let resolved = try Self.resolve([
            "--http-version", "1.1", "--connect-timeout", "2.5", "--low-speed", "1/45", "--tls-min", "1.3",
        ])
        #expect(resolved.settings.httpVersion == .http1_1)
        #expect(resolved.settings.connectTimeout == .milliseconds(2500))
        #expect(resolved.settings.lowSpeedLimit == .init(bytesPerSecond: 1, duration: .seconds(45)))
        #expect(resolved.settings.minimumTLSVersion == .tls1_3)
        #expect(try Self.resolve([], ["RESOLVEKIT_HTTP_VERSION": "2"]).settings.httpVersion == .http2)
    }

    static let mistakes: [(arguments: [String], environment: [String: String], message: String)] = [
        (["--header", "X-Token abc123"], [:], "--header expects 'Name: value', e.g. 'X-Tenant: acme'"),
        (["--header", ": abc123"], [:], "--header expects 'Name: value', e.g. 'X-Tenant: acme'"),
        (["--header", "X-Empty:"], [:], "--header X-Empty has no value"),
        (
            ["--header", "Authorization: Bearer abc123"], [:],
            "--header may not set Authorization: ResolveKit sets it itself (the API key, the proxy's credentials, "
                + "the capability token or the message's framing)"
        ),
        (
            ["--header", "X Tenant: abc123"], [:],
            "--header: The extra header name \"X Tenant\" is not an HTTP token"
        ),
        (
            [], ["RESOLVEKIT_HEADERS": "X-Tenant: acme\nno colon abc123"],
            "RESOLVEKIT_HEADERS expects 'Name: value', e.g. 'X-Tenant: acme'"
        ),
        (
            ["--pin", "sha1//abc"], [:],
            "--pin expects sha256// and the base64 SHA-256 of the server's public key (44 characters), got 'sha1//abc'"
        ),
        (
            [], ["RESOLVEKIT_PINS": pinA + "," + pinB],
            "RESOLVEKIT_PINS expects sha256// and the base64 SHA-256 of the server's public key (44 characters), got "
                + "'\((pinA + "," + pinB).prefix(80))'"
        ),
        (
            ["--proxy", "http://svc:hunter2@proxy.example.com:3128"], [:],
            "--proxy carries a user or password, which ps and logs would show; give the user with --proxy-user and "
                + "the password in a file with --proxy-password-file"
        ),
        (
            [], ["RESOLVEKIT_PROXY": "svc:hunter2@proxy.example.com:3128"],
            "RESOLVEKIT_PROXY carries a user or password, which ps and logs would show; give the user with "
                + "--proxy-user and the password in a file with --proxy-password-file"
        ),
        (
            ["--proxy", "ftp://proxy.example.com"], [:],
            "--proxy expects http://, https://, socks5:// or socks5h:// and a host (e.g. "
                + "http://proxy.example.com:3128), or direct, got 'ftp://proxy.example.com'"
        ),
        (
            ["--proxy-user", "svc"], [:],
            "--proxy-user needs --proxy (or RESOLVEKIT_PROXY): without it the environment's https_proxy and no_proxy "
                + "apply"
        ),
        (
            ["--proxy", "http://127.0.0.1:3128", "--proxy-user", "svc"], [:],
            "--proxy-user needs --proxy-password-file (or RESOLVEKIT_PROXY_PASSWORD_FILE)"
        ),
        (
            ["--proxy", "direct", "--no-proxy", "localhost"], [:],
            "--no-proxy does not apply with --proxy direct, which uses no proxy"
        ),
        (
            ["--ca-only"], [:],
            "--ca-only needs --ca-file or --ca-dir (or their variables): trusting only your own CAs, and none given, "
                + "nothing would verify"
        ),
        ([], ["RESOLVEKIT_CA_ONLY": "maybe"], "RESOLVEKIT_CA_ONLY expects 1 or 0 (true or false), got 'maybe'"),
        ([], ["RESOLVEKIT_TLS_MIN": "1.0"], "RESOLVEKIT_TLS_MIN expects 1.2 or 1.3, got '1.0'"),
        (
            [], ["RESOLVEKIT_CONNECT_TIMEOUT": "soon"],
            "RESOLVEKIT_CONNECT_TIMEOUT expects a number from 0.1 to 600, got 'soon'"
        ),
        (
            ["--low-speed", "45"], [:],
            "--low-speed expects BYTES/SECONDS, whole numbers of at least 1 (at most 3600 seconds), e.g. 1/45, got "
                + "'45'"
        ),
        (["--ca-file", "/nonexistent/ca.pem"], [:], "--ca-file /nonexistent/ca.pem does not exist"),
        (
            [], ["RESOLVEKIT_CA_DIR": "/nonexistent/certs"],
            "RESOLVEKIT_CA_DIR /nonexistent/certs is not an existing folder"
        ),
        (
            [], ["RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE": "/nonexistent/passphrase"],
            "RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE /nonexistent/passphrase does not exist"
        ),
    ]

    @Test(arguments: mistakes)
    func eachMistakeNamesItsFlagOrVariableAndNeverShowsASecret(
        arguments: [String], environment: [String: String], message: String
    ) {
        #expect(throws: UsageError(message)) { try Self.resolve(arguments, environment) }
        #expect(!message.contains("hunter2") && !message.contains("abc123"))
    }

    @Test func flagsThatWouldShowASecretInPsAreRefused() {
        for (arguments, message) in [
            (
                ["--client-key-passphrase", "s3cret"],
                "--client-key-passphrase would show the passphrase to every user in `ps`; put it in a file for "
                    + "--client-key-passphrase-file FILE"
            ),
            (
                ["--proxy-password=s3cret"],
                "--proxy-password would show the password to every user in `ps`; put it in a file for "
                    + "--proxy-password-file FILE"
            ),
        ] {
            #expect(throws: UsageError(message)) { try Self.tool.parse(arguments) }
        }
    }

    @Test func aSecretFileThatIsEmptyOrLongerThanALineIsNamedWithoutItsContent() throws {
        let files = try Files.make()
        defer { files.remove() }
        try Data("line one\nline two\n".utf8).write(to: URL(fileURLWithPath: files.passphrase))
        let base = ["--client-cert", files.certificate, "--client-key-passphrase-file"]
        #expect(
            throws: UsageError(
                "--client-key-passphrase-file \(files.passphrase) must hold the key's passphrase on one line")
        ) {
            try Self.resolve(base + [files.passphrase])
        }
        #expect(
            throws: UsageError(
                "--client-key-passphrase-file \(files.empty) is empty; it must hold the key's passphrase")
        ) {
            try Self.resolve(base + [files.empty])
        }
        #expect(throws: UsageError("--client-key-passphrase-file needs --client-cert (or RESOLVEKIT_CLIENT_CERT)")) {
            try Self.resolve(["--client-key-passphrase-file", files.passphrase])
        }
    }

    @Test func aPassphraseFileThatCannotBeReadIsAUsageError() throws {
        let files = try Files.make()
        defer { files.remove() }
        let options = try NetworkOptions(
            Self.tool.parse(["--client-cert", files.certificate, "--client-key-passphrase-file", files.passphrase]))
        #expect(throws: UsageError("--client-key-passphrase-file \(files.passphrase) cannot be read")) {
            try options.resolve(environment: [:]) { _ in throw CocoaError(.fileReadNoPermission) }
        }
    }
}
