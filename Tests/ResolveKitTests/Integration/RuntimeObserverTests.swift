import Dispatch
import Foundation
import Observation
import ResolveKit
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RuntimeObserverTests {
    /// Observation calls `onChange` on the thread that changes the runtime: an observer that blocks there must not
    /// hold up the result the server is waiting for. The observer here waits for the backend to have the result
    /// before it returns; had the change come first, the result would be sent only after it gave up.
    @Test func aBlockingObserverDoesNotHoldUpTheResultPost() async throws {
        let backend = ReferenceBackend(configuration: .init(script: TestTools.script))
        let resultArrived = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer.start { request in
            let response = await backend.handler(request)
            if request.method == "POST", request.path.hasSuffix("/tool-results") { resultArrived.signal() }
            return response
        }
        let harness = RuntimeHarness(backend: backend, server: server, stateDirectory: "")
        let observerWaited = Mutex<DispatchTimeoutResult?>(nil)
        try await harness.withRuntime(harness.configuration()) { runtime in
            withObservationTracking {
                _ = runtime.toolCallChecklist
            } onChange: {
                let waited = resultArrived.wait(timeout: .now() + 20)
                observerWaited.withLock { $0 = waited }
            }
            let payload: JSONValue = [
                "call_id": "call_observed_1", "function_name": "get_time", "arguments": [:], "timeout_seconds": 30,
                "human_description": "I will get the time", "requires_approval": false,
            ]
            #expect(backend.injectEvent(type: "tool_call_request", payload: payload, intoSession: runtime.sessionID!))
            await runtime.wait { $0.item("get_time")?.status == .completed }
        }
        await backend.stop()
        await server.stop()
        #expect(observerWaited.withLock { $0 } == .success)
        #expect(backend.counters.toolResults["call_observed_1"]?.notPending == 1)
    }
}
