import Foundation
import ResolveKit
import Observation
import ResolveKitTesting
import Synchronization
import Testing

/// A reference backend on a loopback port and runtimes pointed at it, torn down on every exit path.
struct RuntimeHarness: Sendable {
    let backend: ReferenceBackend
    let server: LoopbackHTTPServer
    let stateDirectory: String

    static func run(
        _ configuration: ReferenceBackend.Configuration = ReferenceBackend.Configuration(script: TestTools.script),
        _ body: (RuntimeHarness) async throws -> Void
    ) async throws {
        let backend = ReferenceBackend(configuration: configuration)
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-test-\(UUID().uuidString)").path
        let harness = RuntimeHarness(backend: backend, server: server, stateDirectory: directory)
        do {
            try await body(harness)
        } catch {
            await backend.stop()
            await server.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        await backend.stop()
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func configuration(
        approver: any ToolApprover = AutoApprover(),
        clock: ResolveKitClock = .continuous,
        deviceID: String = "device-" + UUID().uuidString,
        persistent: Bool = false
    ) -> ResolveKitConfiguration {
        // With a manual clock, time jumps: keep the stream's idle watchdog out of the way of the jumps.
        ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!,
            apiKeyProvider: { "rk_dev" },
            deviceIDProvider: { deviceID },
            functions: TestTools.all,
            approver: approver,
            stateLocation: persistent ? .directory(stateDirectory) : .inMemory,
            streamIdleTimeout: .seconds(3600),
            clock: clock)
    }

    /// Starts a runtime, runs `body`, and stops the runtime whatever happens.
    func withRuntime(
        _ configuration: ResolveKitConfiguration,
        _ body: (ResolveKitRuntime) async throws -> Void
    ) async throws {
        let runtime = ResolveKitRuntime(configuration: configuration)
        do {
            try await runtime.start()
            try await body(runtime)
        } catch {
            await runtime.stop()
            throw error
        }
        await runtime.stop()
    }
}

extension ResolveKitRuntime {
    /// Waits, without timers, until `condition` holds: it is re-checked whenever an observed property it read
    /// changes (Observation).
    func wait(until condition: @escaping @Sendable (ResolveKitRuntime) -> Bool) async {
        while !condition(self), !Task.isCancelled {
            let resumed = Mutex(false)
            let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
            let resumeOnce: @Sendable () -> Void = {
                guard resumed.withLock({ flag in defer { flag = true }; return !flag }) else { return }
                continuation.withLock { $0 }?.resume()
            }
            // A cancelled test (its time limit passed) must not hang the process on this wait.
            await withTaskCancellationHandler {
                await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
                    let alreadyResumed = resumed.withLock { flag in
                        if !flag { continuation.withLock { $0 = waiting } }
                        return flag
                    }
                    if alreadyResumed { waiting.resume(); return }
                    let satisfied = withObservationTracking { condition(self) } onChange: { resumeOnce() }
                    if satisfied || Task.isCancelled { resumeOnce() }
                }
            } onCancel: {
                resumeOnce()
            }
        }
    }

    /// Sends `text` and waits until its turn has ended.
    @discardableResult
    func converse(_ text: String) async throws -> String {
        let outcome = await sendMessage(text)
        guard case .accepted(let turnID) = outcome else {
            Issue.record("message not accepted: \(outcome)")
            return ""
        }
        await wait { !$0.isTurnInProgress }
        return turnID
    }

    func item(_ functionName: String) -> ToolCallChecklistItem? {
        toolCallBatches.flatMap(\.items).last { $0.functionName == functionName }
            ?? toolCallChecklist.last { $0.functionName == functionName }
    }
}
