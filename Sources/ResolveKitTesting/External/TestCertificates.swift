import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import Synchronization

/// Certificates for tests of TLS, made with the `openssl` command in a temporary folder: a CA, server certificates
/// signed by it (valid for `127.0.0.1` and `localhost`, expired, and for another host name), a second CA for client
/// certificates with a client certificate and its key (plain and with a passphrase), a client certificate from a CA
/// nobody trusts, and the public-key pins of the server's key and of another key. Elliptic-curve keys: fast to make.
package struct TestCertificates: Sendable {
    /// The folder that holds every file.
    package let directory: String
    /// The CA that signed the server certificates (PEM).
    package var caFile: String { directory + "/ca.pem" }
    /// A folder with the CA, named by subject hash (`openssl rehash`), for `CURLOPT_CAPATH`.
    package var caDirectory: String { directory + "/ca-folder" }
    /// The server's certificate for `127.0.0.1` and `localhost`.
    package var serverCertificate: String { directory + "/server.pem" }
    /// The server's key.
    package var serverKey: String { directory + "/server.key" }
    /// The same key's certificate, expired a day ago.
    package var expiredCertificate: String { directory + "/expired.pem" }
    /// The same key's certificate for `other.invalid` only.
    package var wrongHostCertificate: String { directory + "/wrong-host.pem" }
    /// The CA that signed the client certificate; a server asks for certificates it signed.
    package var clientCAFile: String { directory + "/client-ca.pem" }
    /// The client certificate.
    package var clientCertificate: String { directory + "/client.pem" }
    /// The client key without a passphrase.
    package var clientKey: String { directory + "/client.key" }
    /// The client key encrypted with ``clientKeyPassphrase``.
    package var encryptedClientKey: String { directory + "/client-encrypted.key" }
    /// The passphrase of ``encryptedClientKey``.
    package let clientKeyPassphrase: String
    /// A client certificate from a CA that no server here trusts.
    package var strangerCertificate: String { directory + "/stranger.pem" }
    /// Its key.
    package var strangerKey: String { directory + "/stranger.key" }
    /// `sha256//…` of the server's public key.
    package let serverPin: String
    /// `sha256//…` of another key (the client's): a pin the server never matches.
    package let otherPin: String

    private static let cache = Mutex<Task<TestCertificates, any Error>?>(nil)

    /// One set for the whole test process, made on first use.
    package static func shared() async throws -> TestCertificates {
        let task = cache.withLock { cached in
            if let cached { return cached }
            let task = Task { try await make() }
            cached = task
            return task
        }
        return try await task.value
    }

    /// The folders this process made, removed when it exits: a test run leaves no keys behind in `/tmp`.
    private static let madeFolders = Mutex<[String]>([])
    private static let removingFoldersAtExit: Void = {
        atexit {
            for folder in TestCertificates.madeFolders.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }()

    /// Makes a new set in a new temporary folder, removed when the process exits.
    /// - Throws: ``ExternalProgram/Missing`` without `openssl`; ``FixtureError`` when a command fails.
    package static func make() async throws -> TestCertificates {
        let openssl = try ExternalProgram.openssl.require()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-certs-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory + "/ca-folder", withIntermediateDirectories: true)
        Self.removingFoldersAtExit
        madeFolders.withLock { $0.append(directory) }
        let run = Runner(openssl: openssl, directory: directory)
        try await run.selfSigned("ca", subject: "/CN=ResolveKit Test CA")
        try await run.selfSigned("client-ca", subject: "/CN=ResolveKit Test Client CA")
        try await run.selfSigned("stranger-ca", subject: "/CN=Nobody's CA")
        try await run.key("server")
        try await run.leaf("server", key: "server", ca: "ca", hosts: "DNS:localhost,IP:127.0.0.1", days: "2")
        try await run.leaf("expired", key: "server", ca: "ca", hosts: "DNS:localhost,IP:127.0.0.1", days: "-1")
        try await run.leaf("wrong-host", key: "server", ca: "ca", hosts: "DNS:other.invalid", days: "2")
        try await run.key("client")
        try await run.leaf("client", key: "client", ca: "client-ca", hosts: nil, days: "2")
        try await run.key("stranger")
        try await run.leaf("stranger", key: "stranger", ca: "stranger-ca", hosts: nil, days: "2")
        let passphrase = "rk-passphrase-" + UUID().uuidString.prefix(8)
        try await run.openssl(
            "pkey", "-in", "client.key", "-aes256", "-passout", "pass:" + passphrase, "-out", "client-encrypted.key")
        try FileManager.default.copyItem(atPath: directory + "/ca.pem", toPath: directory + "/ca-folder/ca.pem")
        try await run.openssl("rehash", directory + "/ca-folder")
        return TestCertificates(
            directory: directory, clientKeyPassphrase: passphrase, serverPin: try await run.pin("server"),
            otherPin: try await run.pin("client"))
    }

    private init(directory: String, clientKeyPassphrase: String, serverPin: String, otherPin: String) {
        self.directory = directory
        self.clientKeyPassphrase = clientKeyPassphrase
        self.serverPin = serverPin
        self.otherPin = otherPin
    }

    /// Runs `openssl` in the folder.
    private struct Runner {
        let openssl: String
        let directory: String

        func openssl(_ arguments: String...) async throws {
            let output = try await ChildProcess.runToEnd(openssl, arguments: arguments, currentDirectory: directory)
            guard output.termination.reason == .exit, output.termination.status == 0 else {
                throw FixtureError("openssl \(arguments.joined(separator: " ")) failed: \(output.standardError)")
            }
        }

        func key(_ name: String) async throws {
            try await openssl(
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", name + ".key")
        }

        func selfSigned(_ name: String, subject: String) async throws {
            try await key(name)
            try await openssl(
                "req", "-x509", "-key", name + ".key", "-out", name + ".pem", "-days", "2", "-subj", subject)
        }

        /// A certificate for `key` signed by `ca`; a negative `days` makes it expired.
        func leaf(_ name: String, key: String, ca: String, hosts: String?, days: String) async throws {
            try await openssl("req", "-new", "-key", key + ".key", "-out", name + ".csr", "-subj", "/CN=" + name)
            let extensions = hosts.map { "subjectAltName=\($0)\n" } ?? "extendedKeyUsage=clientAuth\n"
            try extensions.write(toFile: directory + "/" + name + ".ext", atomically: true, encoding: .utf8)
            try await openssl(
                "x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial",
                "-out", name + ".pem", "-days", days, "-extfile", name + ".ext")
        }

        /// `sha256//` and the base64 SHA-256 of the key's DER public key.
        func pin(_ key: String) async throws -> String {
            try await openssl("pkey", "-in", key + ".key", "-pubout", "-outform", "DER", "-out", key + ".pub.der")
            let der = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + key + ".pub.der"))
            return "sha256//" + Data(SHA256.digest(der)).base64EncodedString()
        }
    }
}
