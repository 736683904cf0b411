import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// A mistake in the setup costs no 30 seconds: what no retry can fix ends `start()` at once with its cause, and what
/// a retry may fix says why from its first attempt. Real runtimes against real loopback servers, on a clock only the
/// test moves: "at once" means without waiting on it, which no load on the machine can make false.
@Suite(.timeLimit(.minutes(1)))
struct SetupFailureTests {
    /// A runtime whose clock never moves unless the test moves it.
    static func runtime(
        _ baseURL: String, clock: ResolveKitClock = ResolveKitClock(ManualClock())
    ) -> ResolveKitRuntime {
        ResolveKitRuntime(
            configuration: ResolveKitConfiguration(
                baseURL: URL(string: baseURL)!, apiKeyProvider: { "rk_dev" }, stateLocation: .inMemory, clock: clock))
    }

    /// Starts `runtime` and returns the error `start()` threw. Its clock never moves, so a start that waited to
    /// retry would wait for ever: one that ends did not wait, however busy the machine. A wait is recorded as the
    /// failure it is after 25 s of real time (the retry budget is 30 s), not left to the suite's time limit.
    static func failedStart(_ runtime: ResolveKitRuntime) async -> ResolveKitError? {
        enum Ending: Sendable {
            case threw(ResolveKitError)
            case started
            case waited
        }
        defer { Task { await runtime.stop() } }
        let ending = await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                do throws(ResolveKitError) {
                    try await runtime.start()
                    return .started
                } catch {
                    return .threw(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(25))
                return .waited
            }
            defer { group.cancelAll() }
            return await group.next() ?? .waited
        }
        switch ending {
        case .threw(let error): return error
        case .started: Issue.record("start() succeeded")
        case .waited: Issue.record("start() is waiting on its clock: it retries what no retry can fix")
        }
        return nil
    }

    @Test func tlsToAPlainHTTPBackendEndsTheStartAtOnceSayingToUseHTTP() async throws {
        let server = try LoopbackHTTPServer.start(handler: ReferenceBackend().handler)
        defer { Task { await server.stop() } }
        let error = await Self.failedStart(Self.runtime("https://127.0.0.1:\(server.port)"))
        #expect(error?.code == .unreachable)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("Gave up at once, as retrying cannot help: GET /v1/sdk/compat") == true)
        #expect(error?.message.contains("plain HTTP: use an http:// URL") == true, "\(String(describing: error))")
    }

    @Test func anUnknownHostEndsTheStartAtOnce() async {
        let error = await Self.failedStart(Self.runtime(PermanentHost.url))
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
        let error = await Self.failedStart(Self.runtime(server.baseURL))
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
