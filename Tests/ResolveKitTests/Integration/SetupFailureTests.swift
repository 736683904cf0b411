import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// A mistake in the setup costs no 30 seconds: what no retry can fix ends `start()` at once with its cause, and what
/// a retry may fix says why from its first attempt. Real runtimes against real loopback servers.
@Suite(.timeLimit(.minutes(1)))
struct SetupFailureTests {
    static func runtime(_ baseURL: String, clock: ResolveKitClock = .continuous) -> ResolveKitRuntime {
        ResolveKitRuntime(configuration: ResolveKitConfiguration(
            baseURL: URL(string: baseURL)!, apiKeyProvider: { "rk_dev" }, stateLocation: .inMemory, clock: clock))
    }

    /// Starts `runtime` and returns the error `start()` threw and how long it took.
    static func failedStart(_ runtime: ResolveKitRuntime) async -> (ResolveKitError?, Duration) {
        let started = ContinuousClock.now
        defer { Task { await runtime.stop() } }
        do throws(ResolveKitError) {
            try await runtime.start()
            return (nil, ContinuousClock.now - started)
        } catch {
            return (error, ContinuousClock.now - started)
        }
    }

    @Test func tlsToAPlainHTTPBackendEndsTheStartAtOnceSayingToUseHTTP() async throws {
        let server = try LoopbackHTTPServer.start(handler: ReferenceBackend().handler)
        defer { Task { await server.stop() } }
        let (error, took) = await Self.failedStart(Self.runtime("https://127.0.0.1:\(server.port)"))
        #expect(took < .seconds(5))
        #expect(error?.code == .unreachable)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("Gave up at once, as retrying cannot help: GET /v1/sdk/compat") == true)
        #expect(error?.message.contains("plain HTTP: use an http:// URL") == true, "\(String(describing: error))")
    }

    @Test func anUnknownHostEndsTheStartAtOnce() async {
        let (error, took) = await Self.failedStart(Self.runtime(PermanentHost.url))
        #expect(took < .seconds(5))
        #expect(error?.code == .unreachable)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("host name could not be resolved") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (401, #"{"detail":"Invalid client token"}"#, ResolveKitError.Code.apiKeyRejected, "rejected the API key"),
        (403, #"{"detail":"Forbidden"}"#, .chatUnavailable, "Chat is unavailable"),
        (404, "<html><body>Not Found</body></html>", .backend, "GET /v1/sdk/compat: HTTP 404"),
    ])
    func aRejectionRetryingCannotFixEndsTheStartAtOnceNamingTheRequest(
        status: Int, body: String, code: ResolveKitError.Code, text: String
    ) async throws {
        let server = try LoopbackHTTPServer.start { _ in
            LoopbackResponse(status: status, body: .bytes(Array(body.utf8)))
        }
        defer { Task { await server.stop() } }
        let (error, took) = await Self.failedStart(Self.runtime(server.baseURL))
        #expect(took < .seconds(5))
        #expect(error?.code == code)
        #expect(error?.message.contains(text) == true, "\(String(describing: error))")
    }

    @Test func aRefusedPortIsRetriedAndSaysWhyFromTheFirstAttempt() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let url = closed.baseURL
        let clock = ManualClock()
        let runtime = Self.runtime(url, clock: ResolveKitClock(clock))
        let events = runtime.events
        let starting = Task { try await runtime.start() }
        defer {
            starting.cancel()
            Task { await runtime.stop() }
        }
        var first: ResolveKitConnectionState?
        for await event in events {
            guard case .connectionStateChanged(let state) = event, case .reconnecting = state else { continue }
            first = state
            break
        }
        guard case .reconnecting(let attempt, _, let cause)? = first else {
            Issue.record("no reconnecting state")
            return
        }
        #expect(attempt == 1)
        #expect(cause?.message.contains("GET /v1/sdk/compat") == true)
        #expect(cause?.message.contains("Could not connect to the server") == true)
        #expect(first?.description.contains("reconnecting (attempt 1, in ") == true)
        #expect(first?.description.contains("): GET /v1/sdk/compat: connect_failed") == true)
    }
}

/// A host name no resolver can look up (a 64-letter label), so the lookup fails without leaving the machine.
enum PermanentHost {
    static let url = "http://" + String(repeating: "a", count: 64) + ".invalid"
}
