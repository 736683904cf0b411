import Foundation
import Glibc
import Synchronization
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeStartTests {
    @Test func aSecondRuntimeOnTheSameStateFolderFailsAtOnceNamingTheHolder() async throws {
        try await RuntimeHarness.run { harness in
            let configuration = harness.configuration(persistent: true)
            try await harness.withRuntime(configuration) { first in
                let second = ResolveKitRuntime(configuration: configuration)
                do throws(ResolveKitError) {
                    try await second.start()
                    Issue.record("two runtimes shared one state folder")
                } catch {
                    #expect(error.code == .stateLocked)
                    #expect(error.message.contains("\(getpid())"))
                    #expect(second.lastError?.code == .stateLocked)
                    if case .blocked(let reason) = second.connectionState { #expect(reason.code == .stateLocked) }
                    else { Issue.record("the second runtime is \(second.connectionState)") }
                }
                #expect(first.connectionState == .active)
                await second.stop()
            }
            // The first one stopped: the folder is free again, and a restart after the failure works.
            try await harness.withRuntime(configuration) { runtime in
                #expect(runtime.connectionState == .active)
            }
        }
    }

    @Test func startGivesUpWithinTheConnectBudgetNamingTheLastCause() async throws {
        let server = try LoopbackHTTPServer.start { _ in LoopbackResponse(status: 503) }
        defer { Task { await server.stop() } }
        let clock = ManualClock()
        let runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(
            baseURL: URL(string: server.baseURL)!, apiKeyProvider: { "rk_dev" }, stateLocation: .inMemory,
            connectTimeout: .seconds(30), clock: ResolveKitClock(clock)))
        let starting = Task { try await runtime.start() }
        // Setup fails at once and backs off; nothing advances the clock but the test, straight to the budget.
        let budget = ManualClock.Instant(offset: .seconds(30))
        await clock.waitForSleeper(at: budget)
        await runtime.wait { if case .reconnecting = $0.connectionState { true } else { false } }
        clock.advance(to: budget)
        do {
            try await starting.value
            Issue.record("a backend answering 503 was treated as reachable")
        } catch let error as ResolveKitError {
            #expect(error.code == .unreachable)
            #expect(error.isRetryable)
            #expect(error.message.contains("within 30"))
            #expect(error.message.contains("503"))
            #expect(runtime.lastError?.code == .unreachable)
        } catch {
            Issue.record("start() threw \(error)")
        }
        await runtime.stop()
    }

    /// Soak, turn 4880: a backend that answers but stalls the first stream connect must not fail `start()` at the
    /// 30 s budget while the stream's own idle watchdog (45 s) is about to retry.
    @Test func aStalledFirstStreamConnectIsRetriedPastTheConnectBudget() async throws {
        let clock = ManualClock()
        try await RuntimeHarness.run { harness in
            harness.backend.configuration.faults.stall(.init("GET", "/v1/sessions/*/events"))
            var configuration = harness.configuration(clock: ResolveKitClock(clock))
            configuration.streamIdleTimeout = .seconds(45)
            let runtime = ResolveKitRuntime(configuration: configuration)
            let pump = RuntimeRecoveryTests.advanceThroughReconnects(runtime, clock)
            defer { pump.cancel() }
            let starting = Task { try await runtime.start() }
            await harness.backend.configuration.faults.waitForStalledRequests(count: 1)
            let idle = ManualClock.Instant(offset: .seconds(45))
            await clock.waitForSleeper(at: idle)
            clock.advance(to: idle)
            try await starting.value
            #expect(runtime.connectionState == .active)
            harness.backend.configuration.faults.releaseStalls()
            await runtime.stop()
        }
    }

    @Test func startAfterABlockStartsAfreshWithoutStop() async throws {
        try await RuntimeHarness.run { harness in
            let key = Mutex<String?>(nil)
            var configuration = harness.configuration()
            configuration.apiKeyProvider = { key.withLock { $0 } }
            let runtime = ResolveKitRuntime(configuration: configuration)
            await #expect(throws: ResolveKitError.self) { try await runtime.start() }
            #expect(runtime.lastError?.code == .missingAPIKey)
            key.withLock { $0 = "rk_dev" }
            try await runtime.start()
            #expect(runtime.connectionState == .active)
            await runtime.stop()
        }
    }

    @Test func aMissingAPIKeyBlocksWithItsOwnCode() async throws {
        let runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(
            baseURL: URL(string: "http://127.0.0.1:9")!, apiKeyProvider: { nil }, stateLocation: .inMemory))
        await #expect(throws: ResolveKitError.self) { try await runtime.start() }
        #expect(runtime.lastError?.code == .missingAPIKey)
        #expect(runtime.lastError?.isRetryable == false)
        await runtime.stop()
    }

    @Test func aBaseURLThatIsNotHTTPIsAConfigurationError() async throws {
        let runtime = ResolveKitRuntime(configuration: ResolveKitConfiguration(
            baseURL: URL(string: "ftp://example.org")!, apiKeyProvider: { "key" }, stateLocation: .inMemory))
        do throws(ResolveKitError) {
            try await runtime.start()
            Issue.record("an ftp URL was accepted")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
        await runtime.stop()
    }
}
