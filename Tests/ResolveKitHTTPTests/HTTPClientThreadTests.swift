import Foundation
import ResolveKitTesting
import Testing

@testable import ResolveKitHTTP

/// The client's one thread serves long-lived streams first, and starts a burst of requests a few at a time.
@Suite(.timeLimit(.minutes(1)))
struct HTTPClientThreadTests {
    /// `/events` sends `first`, waits for `gate`, sends `second` and ends; every other path answers `ok`.
    private func handler(_ gate: Gate) -> LoopbackHandler {
        { request in
            guard request.path == "/events" else {
                return LoopbackResponse(status: 200, body: .bytes(Array("ok".utf8)))
            }
            return LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    try await writer.write(Array("first".utf8))
                    await gate.wait()
                    try await writer.write(Array("second".utf8))
                })
        }
    }

    @Test func aStreamKeepsDeliveringWhileABurstOfRequestsRunsBesideIt() async throws {
        let gate = Gate()
        try await LoopbackHTTPServer.withServer(handler: handler(gate)) { server in
            try await HTTPClient.withClient { client in
                let stream = try await client.execute(HTTPRequest(url: server.baseURL + "/events", isLongLived: true))
                var events = stream.body.makeAsyncIterator()
                #expect(try await events.next() == Array("first".utf8))
                let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                    for _ in 0..<200 { group.addTask { try await client.send(HTTPRequest(url: server.baseURL)).body } }
                    return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
                }
                #expect(bodies == Array(repeating: Array("ok".utf8), count: 200))
                gate.open()
                #expect(try await events.next() == Array("second".utf8))
                #expect(try await events.next() == nil)
            }
        }
    }

    /// Requests still waiting for their turn when the client shuts down fail with `shutdown`; none is left hanging.
    @Test func shutdownEndsEveryRequestOfABurst() async throws {
        try await LoopbackHTTPServer.withServer(handler: handler(Gate())) { server in
            let client = HTTPClient()
            let requests = (0..<200).map { _ in
                Task { try await client.send(HTTPRequest(url: server.baseURL)).body }
            }
            await client.shutdown()
            for request in requests {
                switch await request.result {
                case .success(let body): #expect(body == Array("ok".utf8))
                case .failure(let error): #expect((error as? HTTPError)?.code == .shutdown)
                }
            }
        }
    }

    /// Operators find the thread by name (`top -H`, `perf`, `/proc/<pid>/task/*/comm`).
    @Test func theCurlThreadIsNamed() async throws {
        try await LoopbackHTTPServer.withServer(handler: handler(Gate())) { server in
            try await HTTPClient.withClient { client in
                #expect(try await client.send(HTTPRequest(url: server.baseURL)).body == Array("ok".utf8))
                let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
                let names = tasks.compactMap { task in
                    try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                }
                #expect(names.contains("rk-http\n"))
            }
        }
    }

    /// A background client (telemetry's exports) works as any other, from a thread of its own at `SCHED_IDLE` (5).
    @Test func aBackgroundClientsThreadRunsAtTheIdlePolicy() async throws {
        try await LoopbackHTTPServer.withServer(handler: handler(Gate())) { server in
            try await HTTPClient.withClient(configuration: .init(isBackground: true)) { client in
                #expect(try await client.send(HTTPRequest(url: server.baseURL)).body == Array("ok".utf8))
                let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
                let policies = tasks.compactMap { task -> Int32? in
                    let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                    guard name == "rk-http-idle\n", let id = pid_t(task) else { return nil }
                    return sched_getscheduler(id)
                }
                #expect(!policies.isEmpty && policies.allSatisfy { $0 == 5 })
            }
        }
    }

    @Test func waitingRequestsLeaveInOrderAndACancelledOneLeavesAtOnce() {
        let loop = CurlLoop(configuration: .init(), threadName: "rk-http")
        let transfers = (1...4).map {
            Transfer(id: $0, request: HTTPRequest(url: "http://127.0.0.1:1"), loop: loop, maxBufferedBytes: 1024)
        }
        var waiting = WaitingRequests()
        for transfer in transfers { waiting.append(transfer) }
        #expect(waiting.popFirst()?.id == 1)
        #expect(waiting.remove(id: 3)?.id == 3)
        #expect(waiting.remove(id: 1) == nil)
        #expect(waiting.popFirst()?.id == 2)
        waiting.append(transfers[0])
        #expect(waiting.removeAll().map(\.id) == [4, 1])
        #expect(waiting.isEmpty)
        #expect(waiting.popFirst() == nil)
        loop.requestStop()
    }
}
