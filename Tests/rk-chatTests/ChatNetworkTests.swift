import Foundation
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// `rk-chat` run as a person runs it behind a company's network: the reference backend behind a real nginx with TLS
/// (and mutual TLS), a real tinyproxy that wants credentials. Each setting comes from its flag or its variable; each
/// refusal is printed as its cause in words and exits 3 at the first attempt; no secret is ever printed.
@Suite(
    .timeLimit(.minutes(2)), .serialized,
    .enabled(
        if: TLSBackend.shouldRun && ExternalProgram.tinyproxy.shouldRun,
        Comment(rawValue: TLSBackend.skipNote + "; " + ExternalProgram.tinyproxy.skipNote)))
struct ChatNetworkTests {
    static let apiKey = "rk_chat_net_" + UUID().uuidString.prefix(8)
    static let proxyPassword = "proxy-pw-" + UUID().uuidString.prefix(8)
    static let gatewayToken = "gw-token-" + UUID().uuidString.prefix(8)

    struct Run {
        var status: Int32
        var output: String
        var elapsed: Duration
    }

    /// A folder with the API key's file, the secret files and the state folder, removed after `body`.
    struct Folder {
        let path: String
        var apiKeyFile: String { path + "/api-key" }
        var passphraseFile: String { path + "/passphrase" }
        var proxyPasswordFile: String { path + "/proxy-password" }
        var wrongPasswordFile: String { path + "/wrong-password" }
        var headerFile: String { path + "/headers" }
        var state: String { path + "/state" }

        static func with(_ certificates: TestCertificates, _ body: (Folder) async throws -> Void) async throws {
            let folder = Folder(path: "/tmp/rk-chat-net-" + UUID().uuidString.prefix(8).lowercased())
            try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder.path) }
            for (file, text) in [
                (folder.apiKeyFile, ChatNetworkTests.apiKey), (folder.passphraseFile, certificates.clientKeyPassphrase),
                (folder.proxyPasswordFile, ChatNetworkTests.proxyPassword), (folder.wrongPasswordFile, "wrong-pw-7c1d"),
                (folder.headerFile, "X-Gateway-Token: \(ChatNetworkTests.gatewayToken)"),
            ] {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: file))
            }
            try await body(folder)
        }
    }

    /// Runs `body` with a tinyproxy that wants `svc-agent` and ``proxyPassword``, stopped on every exit path.
    static func withProxy(_ body: (TinyproxyServer) async throws -> Void) async throws {
        let proxy = try await TinyproxyServer.start(user: "svc-agent", password: proxyPassword)
        do {
            try await body(proxy)
        } catch {
            await proxy.stop()
            throw error
        }
        await proxy.stop()
    }

    /// Runs `rk-chat --base-url <nginx> … -m <question> --approve all` (or without `-m`: the interactive chat, whose
    /// input is empty) with `arguments` and `variables` added to an environment without `RESOLVEKIT_…`.
    static func chat(
        _ backend: TLSBackend, _ folder: Folder, _ arguments: [String], variables: [String: String] = [:],
        message: String? = "what time is it?"
    ) async throws -> Run {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") }
        environment.merge(variables) { $1 }
        let oneShot = message.map { ["-m", $0] } ?? []
        let started = ContinuousClock.now
        let output = try await ChildProcess.runToEnd(
            ChatBinaryTests.binary.path,
            arguments: [
                "--base-url", backend.baseURL, "--api-key-file", folder.apiKeyFile, "--state-dir", folder.state,
            ]
                + arguments + oneShot + ["--approve", "all"],
            environment: environment)
        return Run(
            status: output.termination.status, output: output.standardOutput + output.standardError,
            elapsed: ContinuousClock.now - started)
    }

    @Test func aOneShotTrustsTheBackendByItsCAFile() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Folder.with(backend.certificates) { folder in
                let run = try await Self.chat(backend, folder, ["--ca-file", backend.certificates.caFile])
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.contains("· get_local_time completed"), "\(run.output)")
            }
        }
    }

    /// The CA and the client certificate with its encrypted key, without the key's passphrase.
    static func encryptedIdentity(_ certificates: TestCertificates) -> [String] {
        [
            "--ca-file", certificates.caFile, "--client-cert", certificates.clientCertificate,
            "--client-key", certificates.encryptedClientKey,
        ]
    }

    @Test func mutualTLSSendsTheClientCertificateWithItsPassphraseFromAFile() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            try await Folder.with(backend.certificates) { folder in
                let passphrase = ["--client-key-passphrase-file", folder.passphraseFile]
                let run = try await Self.chat(backend, folder, Self.encryptedIdentity(backend.certificates) + passphrase)
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.contains("· get_local_time completed"), "\(run.output)")
                #expect(!run.output.contains(backend.certificates.clientKeyPassphrase))
            }
        }
    }

    @Test func aProxyWithCredentialsFromAFileTunnelsEveryRequest() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Self.withProxy { proxy in
                try await Folder.with(backend.certificates) { folder in
                    let run = try await Self.chat(
                        backend, folder,
                        [
                            "--ca-file", backend.certificates.caFile, "--proxy", proxy.url, "--proxy-user", "svc-agent",
                            "--proxy-password-file", folder.proxyPasswordFile,
                        ])
                    #expect(run.status == 0, "\(run.output)")
                    #expect(proxy.log.contains("CONNECT"), "\(proxy.log)")
                    #expect(!run.output.contains(Self.proxyPassword))
                }
            }
        }
    }

    @Test func extraHeadersReachTheServerAndATokenFromAFileIsNeverPrinted() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Folder.with(backend.certificates) { folder in
                let run = try await Self.chat(
                    backend, folder,
                    [
                        "--ca-file", backend.certificates.caFile, "--header", "X-Tenant: acme", "--header",
                        "@" + folder.headerFile,
                    ])
                #expect(run.status == 0, "\(run.output)")
                let received = backend.receivedHeaders
                #expect(received.filter { $0 == "x-tenant: acme" }.count >= 3, "setup, message and stream")
                #expect(received.contains("x-gateway-token: \(Self.gatewayToken.lowercased())"))
                #expect(!run.output.contains(Self.gatewayToken))
            }
        }
    }

    @Test func everySettingAlsoComesFromItsVariable() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            try await Folder.with(backend.certificates) { folder in
                let certificates = backend.certificates
                let run = try await Self.chat(
                    backend, folder, [],
                    variables: [
                        "RESOLVEKIT_CA_FILE": certificates.caFile,
                        "RESOLVEKIT_CLIENT_CERT": certificates.clientCertificate,
                        "RESOLVEKIT_CLIENT_KEY": certificates.encryptedClientKey,
                        "RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE": folder.passphraseFile,
                        "RESOLVEKIT_PINS": certificates.otherPin + ";" + certificates.serverPin,
                        "RESOLVEKIT_HEADERS": "X-Tenant: acme\nX-Region: eu", "RESOLVEKIT_HTTP_VERSION": "1.1",
                    ])
                #expect(run.status == 0, "\(run.output)")
                #expect(backend.receivedHeaders.contains("x-region: eu"))
            }
        }
    }

    /// The failures no retry can fix: each is its cause in words, the flag that changes it, exit 3, at once.
    @Test(arguments: [
        ("unknown CA", false, "untrusted certificate", "--ca-file FILE"),
        ("wrong pin", false, "pin mismatch", "--pin"),
        ("no client certificate", true, "client certificate required", "--client-cert FILE"),
        ("wrong proxy credentials", false, "proxy needs authentication", "--proxy-password-file"),
        ("a header the request carries", false, "header not allowed", "--header"),
    ])
    func aRefusalIsItsCauseInWordsAndExit3AtTheFirstAttempt(
        refusal: String, mutualTLS: Bool, words: String, fix: String
    ) async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: mutualTLS) { backend in
            try await Self.withProxy { proxy in
                try await Folder.with(backend.certificates) { folder in
                    let certificates = backend.certificates
                    let arguments: [String] =
                        switch refusal {
                        case "unknown CA": []
                        case "wrong pin": ["--ca-file", certificates.caFile, "--pin", certificates.otherPin]
                        case "no client certificate": ["--ca-file", certificates.caFile]
                        case "a header the request carries":
                            ["--ca-file", certificates.caFile, "--header", "Accept: */*"]
                        default:
                            [
                                "--ca-file", certificates.caFile, "--proxy", proxy.url, "--proxy-user", "svc-agent",
                                "--proxy-password-file", folder.wrongPasswordFile,
                            ]
                        }
                    let run = try await Self.chat(backend, folder, arguments)
                    #expect(run.status == 3, "\(run.output)")
                    #expect(run.output.contains("rk-chat: could not connect: \(words)\n"), "\(run.output)")
                    #expect(run.output.contains("To fix: ") && run.output.contains(fix), "\(run.output)")
                    #expect(run.elapsed < .seconds(20), "the 30 s budget was waited out: \(run.elapsed)")
                    #expect(!run.output.contains("wrong-pw-7c1d"))
                }
            }
        }
    }

    /// An encrypted key given without its passphrase is unusable, said at once: OpenSSL does not ask for one on
    /// the terminal (where a service would wait for ever) nor write its prompt.
    @Test func anEncryptedKeyWithoutItsPassphraseIsUnusableAndNothingPrompts() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            try await Folder.with(backend.certificates) { folder in
                let run = try await Self.chat(backend, folder, Self.encryptedIdentity(backend.certificates))
                #expect(run.status == 3, "\(run.output)")
                #expect(run.output.contains("unusable client certificate or key"), "\(run.output)")
                #expect(!run.output.contains("pass phrase"), "\(run.output)")
                #expect(run.elapsed < .seconds(20), "\(run.elapsed)")
            }
        }
    }

    @Test func theInteractiveChatSaysTheCauseAndExits3Too() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Folder.with(backend.certificates) { folder in
                let run = try await Self.chat(backend, folder, [], message: nil)
                #expect(run.status == 3, "\(run.output)")
                #expect(run.output.contains("rk-chat: could not connect: untrusted certificate\n"), "\(run.output)")
                #expect(run.output.contains("--ca-file FILE or --ca-dir DIR"))
            }
        }
    }

    @Test func thePassphraseAndTheProxyPasswordArePrintedNowhereWhetherItWorksOrNot() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            try await Self.withProxy { proxy in
                try await Folder.with(backend.certificates) { folder in
                    let certificates = backend.certificates
                    let identity = [
                        "--ca-file", certificates.caFile, "--client-cert", certificates.clientCertificate,
                        "--client-key",
                        certificates.encryptedClientKey, "--client-key-passphrase-file", folder.passphraseFile,
                        "--proxy", proxy.url, "--proxy-user", "svc-agent", "--header", "@" + folder.headerFile,
                    ]
                    let works = try await Self.chat(
                        backend, folder, identity + ["--proxy-password-file", folder.proxyPasswordFile])
                    #expect(works.status == 0, "\(works.output)")
                    // A wrong passphrase and a wrong proxy password: both are secrets too, and both end in a refusal.
                    try Data("not-the-passphrase-51e2\n".utf8).write(to: URL(fileURLWithPath: folder.passphraseFile))
                    let fails = try await Self.chat(
                        backend, folder, identity + ["--proxy-password-file", folder.wrongPasswordFile])
                    #expect(fails.status == 3, "\(fails.output)")
                    let secrets = [
                        certificates.clientKeyPassphrase, Self.proxyPassword, Self.gatewayToken,
                        "not-the-passphrase-51e2",
                        "wrong-pw-7c1d", Self.apiKey,
                    ]
                    for secret in secrets {
                        #expect(!works.output.contains(secret), "\(secret) in \(works.output)")
                        #expect(!fails.output.contains(secret), "\(secret) in \(fails.output)")
                    }
                }
            }
        }
    }
}
