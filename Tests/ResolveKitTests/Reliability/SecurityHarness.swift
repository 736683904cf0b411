import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization

/// A reference backend behind a loopback server that remembers every capability token clients sent and can
/// replace answers, plus a runtime whose logger keeps every record: what the security tests look through.
struct SecurityHarness: Sendable {
    static let apiKey = "rk_live_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")

    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let tokens: Recorder
    let records: Recorder

    /// Collects strings from any thread.
    final class Recorder: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ item: String) { items.withLock { if !$0.contains(item) { $0.append(item) } } }
        var all: [String] { items.withLock { $0 } }
    }

    /// Runs `body` against a fresh backend; `override` may answer a request instead of the backend.
    static func run(
        override: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse? = { _ in nil },
        _ body: (SecurityHarness) async throws -> Void
    ) async throws {
        let backend = ReferenceBackend(configuration: .init(apiKeys: [apiKey], script: TestTools.script))
        let tokens = Recorder()
        let server = try LoopbackHTTPServer.start { request in
            if let token = request.header("X-Resolvekit-Chat-Capability") { tokens.add(token) }
            if let replaced = override(request) { return replaced }
            return await backend.handler(request)
        }
        let harness = SecurityHarness(backend: backend, server: server, tokens: tokens, records: Recorder())
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

    func configuration(
        apiKey: String = Self.apiKey, approver: any ToolApprover = AutoApprover(),
        allowed: (@Sendable () -> [String])? = nil, clock: ResolveKitClock = .continuous
    ) -> ResolveKitConfiguration {
        let records = self.records
        return ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { apiKey },
            deviceIDProvider: { "device-security-" + apiKey.suffix(6) }, availableFunctionNamesProvider: allowed,
            functions: TestTools.all, approver: approver,
            logger: ResolveKitLogger(label: "test", minimumLevel: .trace) { record in
                records.add("\(record.label) \(record.message) \(record.metadata)")
            },
            stateLocation: .inMemory, streamIdleTimeout: .seconds(3600), clock: clock)
    }

    /// Every text a host or operator can see of `runtime`: log records, execution log, transcript, last error.
    func visibleTexts(of runtime: ResolveKitRuntime) -> [String] {
        let lastError: [String] = runtime.lastError.map { ["\($0)"] } ?? []
        return records.all + runtime.executionLog + runtime.messages.map(\.text) + lastError
    }

    /// Injects a `tool_call_request` into the runtime's session.
    func injectCall(
        _ callID: String, _ functionName: String, arguments: JSONValue = [:], requiresApproval: Bool = false,
        into runtime: ResolveKitRuntime
    ) -> Bool {
        let payload: JSONValue = [
            "call_id": .string(callID), "function_name": .string(functionName), "arguments": arguments,
            "timeout_seconds": 30, "human_description": .string("I will run \(functionName)"),
            "requires_approval": .bool(requiresApproval),
        ]
        return backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: runtime.sessionID ?? "")
    }
}
