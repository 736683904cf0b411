import Foundation
import ResolveKitTesting
import Testing

/// `rk-service` behind a company's network, as a process: the reference backend behind a real nginx with TLS (and
/// mutual TLS), a real tinyproxy with credentials. The settings come from flags or from the variables a systemd unit
/// sets; a refusal at start is logged as its cause in words and exits 3; no secret reaches the log, even at trace.
@Suite(
    .timeLimit(.minutes(2)), .serialized,
    .enabled(
        if: TLSBackend.shouldRun && ExternalProgram.tinyproxy.shouldRun,
        Comment(rawValue: TLSBackend.skipNote + "; " + ExternalProgram.tinyproxy.skipNote)))
struct ServiceNetworkTests {
    static let apiKey = "rk_service_net_" + UUID().uuidString.prefix(8)
    static let proxyPassword = "svc-proxy-pw-" + UUID().uuidString.prefix(8)

    /// A folder for the state and the secret files, removed after `body`.
    static func withFolder(_ certificates: TestCertificates, _ body: (String) async throws -> Void) async throws {
        let folder = "/tmp/rk-service-net-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data((certificates.clientKeyPassphrase + "\n").utf8).write(
            to: URL(fileURLWithPath: folder + "/passphrase"))
        try Data((proxyPassword + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/proxy-password"))
        try Data("wrong-svc-pw-93ab\n".utf8).write(to: URL(fileURLWithPath: folder + "/wrong-password"))
        try await body(folder)
    }

    /// Starts rk-service against nginx with its state in `folder`, the key in the environment, and `variables`.
    static func launch(
        _ backend: TLSBackend, _ folder: String, _ arguments: [String], variables: [String: String] = [:]
    ) throws -> ServiceProcess {
        var environment = ServiceProcess.cleanEnvironment
        environment["RESOLVEKIT_API_KEY"] = apiKey
        environment.merge(variables) { $1 }
        return try ServiceProcess(
            ["--base-url", backend.baseURL, "--state-dir", folder + "/state", "--connect-attempts", "0"] + arguments,
            environment: environment)
    }

    /// Asks one question, checks the answer, then ends the input and expects a clean stop.
    static func askAndStop(_ service: ServiceProcess) async throws {
        service.send(#"{"id": "1", "message": "what time is it?"}"#)
        let answer = try await service.answer(id: "1")
        #expect(answer["status"] as? String == "ok", "\(service.stderr)")
        service.closeInput()
        #expect(await service.exitStatus() == 0, "\(service.stderr)")
    }

    @Test func itTrustsTheBackendByItsCAFileAndAnswers() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Self.withFolder(backend.certificates) { folder in
                let service = try Self.launch(backend, folder, ["--ca-file", backend.certificates.caFile])
                try await Self.askAndStop(service)
                #expect(service.stderr.contains("ca_file=\(backend.certificates.caFile)"), "\(service.stderr)")
            }
        }
    }

    @Test func mutualTLSAndTheProxyComeFromTheVariablesASystemdUnitSets() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            let proxy = try await TinyproxyServer.start(user: "svc-agent", password: Self.proxyPassword)
            do {
                try await Self.withFolder(backend.certificates) { folder in
                    let certificates = backend.certificates
                    let service = try Self.launch(
                        backend, folder, [],
                        variables: [
                            "RESOLVEKIT_CA_FILE": certificates.caFile,
                            "RESOLVEKIT_CLIENT_CERT": certificates.clientCertificate,
                            "RESOLVEKIT_CLIENT_KEY": certificates.encryptedClientKey,
                            "RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE": folder + "/passphrase",
                            "RESOLVEKIT_PROXY": proxy.url, "RESOLVEKIT_PROXY_USER": "svc-agent",
                            "RESOLVEKIT_PROXY_PASSWORD_FILE": folder + "/proxy-password",
                            "RESOLVEKIT_HEADERS": "X-Tenant: acme",
                        ])
                    try await Self.askAndStop(service)
                    #expect(proxy.log.contains("CONNECT"), "\(proxy.log)")
                    #expect(backend.receivedHeaders.contains("x-tenant: acme"))
                }
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
        }
    }

    @Test func anUnknownCAEndsTheStartWithExit3AndTheCauseInWords() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey) { backend in
            try await Self.withFolder(backend.certificates) { folder in
                let service = try Self.launch(backend, folder, [])
                #expect(await service.exitStatus() == 3, "\(service.stderr)")
                #expect(service.stderr.contains(#"msg="cannot connect""#), "\(service.stderr)")
                #expect(service.stderr.contains(#"cause="untrusted certificate""#), "\(service.stderr)")
                #expect(service.stderr.contains("--ca-file FILE or --ca-dir DIR"), "\(service.stderr)")
            }
        }
    }

    @Test func aMissingClientCertificateEndsTheStartWithExit3AndItsCause() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            try await Self.withFolder(backend.certificates) { folder in
                let service = try Self.launch(backend, folder, ["--ca-file", backend.certificates.caFile])
                #expect(await service.exitStatus() == 3, "\(service.stderr)")
                #expect(service.stderr.contains(#"cause="client certificate required""#), "\(service.stderr)")
            }
        }
    }

    @Test func noSecretReachesTheLogEvenAtTraceWhetherItWorksOrNot() async throws {
        try await TLSBackend.run(apiKey: Self.apiKey, mutualTLS: true) { backend in
            let proxy = try await TinyproxyServer.start(user: "svc-agent", password: Self.proxyPassword)
            do {
                try await Self.withFolder(backend.certificates) { folder in
                    let certificates = backend.certificates
                    let arguments = [
                        "--log-level", "trace", "--ca-file", certificates.caFile, "--client-cert",
                        certificates.clientCertificate, "--client-key", certificates.encryptedClientKey,
                        "--client-key-passphrase-file", folder + "/passphrase", "--proxy", proxy.url, "--proxy-user",
                        "svc-agent",
                    ]
                    let works = try Self.launch(
                        backend, folder, arguments + ["--proxy-password-file", folder + "/proxy-password"])
                    try await Self.askAndStop(works)
                    let fails = try Self.launch(
                        backend, folder, arguments + ["--proxy-password-file", folder + "/wrong-password"])
                    #expect(await fails.exitStatus() == 3, "\(fails.stderr)")
                    #expect(fails.stderr.contains(#"cause="proxy needs authentication""#), "\(fails.stderr)")
                    let secrets = [
                        certificates.clientKeyPassphrase, Self.proxyPassword, "wrong-svc-pw-93ab", Self.apiKey,
                    ]
                    #expect(works.stderr.contains("level=trace") || works.stderr.contains("level=debug"))
                    for secret in secrets {
                        #expect(!(works.stderr + works.stdout).contains(secret), "\(secret) in \(works.stderr)")
                        #expect(!(fails.stderr + fails.stdout).contains(secret), "\(secret) in \(fails.stderr)")
                    }
                }
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
        }
    }
}
