import Foundation
import ResolveKitTesting

/// A reference backend on a loopback port, a state folder, and `rk-service` processes pointed at them.
struct ServiceHarness: Sendable {
    static let apiKey = "rk_test_secret_7f3c91"

    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let directory: String

    var stateDirectory: String { directory + "/state" }

    /// Runs `body` with a fresh backend and folder, torn down on every exit path.
    static func run(_ body: (ServiceHarness) async throws -> Void) async throws {
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(apiKeys: [apiKey]))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let directory = "/tmp/rk-service-test-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let harness = ServiceHarness(backend: backend, server: server, directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try await body(harness)
        } catch {
            await backend.stop()
            await server.stop()
            throw error
        }
        await backend.stop()
        await server.stop()
    }

    /// Starts `rk-service` against this backend with the key in the environment and its state in ``stateDirectory``.
    func launch(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> ServiceProcess {
        var variables = ServiceProcess.cleanEnvironment
        variables["RESOLVEKIT_API_KEY"] = Self.apiKey
        variables.merge(environment) { $1 }
        return try ServiceProcess(
            ["--base-url", server.baseURL, "--state-dir", stateDirectory] + arguments, environment: variables)
    }
}
