import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// A connection that stops forwarding without closing (a proxy or a NAT that dropped the flow) must not take the
/// requests after the one that timed out on it. Over HTTP/2 every request to a server shares one connection, and
/// libcurl keeps it after one of its streams timed out.
@Suite(.timeLimit(.minutes(1)), .enabled(if: TLSFixture.enabled, TLSFixture.skipNote))
struct StalledConnectionTests {
    @Test func aRequestAfterOneThatTimedOutOnAStalledHTTP2ConnectionGoesOverANewOne() async throws {
        try await TLSFixture.run { fixture in
            let relay = try LoopbackTCPRelay(targetPort: fixture.proxy.process.port)
            defer { relay.stop() }
            let connected = Mutex<[Bool]>([])
            var network = fixture.trusted
            network.observer = { record in connected.withLock { $0.append(record.timings.connect > .zero) } }
            let url = "https://127.0.0.1:\(relay.port)/hello"
            try await HTTPClient.withClient { client in
                let first = try await client.send(HTTPRequest(url: url, network: network))
                #expect(first.httpVersion == .http2)
                relay.stallOpenConnections()
                let stalled = await #expect(throws: HTTPError.self) {
                    try await client.send(HTTPRequest(url: url, timeout: .seconds(1), network: network))
                }
                #expect(stalled?.code == .timedOut)
                let third = try await client.send(HTTPRequest(url: url, timeout: .seconds(10), network: network))
                #expect(third.status == 200)
            }
            // The second request went over the first one's connection; the third connected anew.
            #expect(connected.withLock { $0 } == [true, false, true])
            #expect(fixture.requests.all.count == 2)
        }
    }

    /// The event stream's idle watchdog gives up on a stream whose connection went silent; the reconnect must not go
    /// over that connection again (it would never get a response head, and so on at every retry).
    @Test func anEventStreamWhoseConnectionStalledReconnectsOverANewOne() async throws {
        let run = try await Self.streamThroughRelay(endsFirstStream: false) { relay, element in
            if case .event(let event) = element, event.id == "1" { relay.stallOpenConnections() }
        }
        // Without giving the stalled connection up, the reconnect waited on it for a head that never came.
        #expect(run.events == ["1", "2"])
        // Both streams connected anew: the second did not reuse the first one's connection.
        #expect(run.connected == [true, true])
        #expect(run.served == 2)
    }

    /// A stream the server ended cleanly reconnects at once, over the same HTTP/2 connection; if that connection went
    /// silent in between, no response head comes, and the next attempt must not wait on it again.
    @Test func aReconnectWhoseResponseHeadNeverComesGivesUpItsConnection() async throws {
        let run = try await Self.streamThroughRelay(endsFirstStream: true) { relay, element in
            // The first stream ended; its connection goes silent before the reconnect is sent on it.
            if element == .state(.reconnecting(attempt: 0, delay: .zero)) { relay.stallOpenConnections() }
        }
        // Without giving the connection up, every attempt waited on it for a head that never came.
        #expect(run.events == ["1", "2"])
        #expect(run.connected.first == true)
        #expect(run.connected.last == true, "the stream that delivered came over a new connection")
        #expect(run.served == 2)
    }

    /// An event stream (idle timeout 1 s) from a TLS HTTP/2 server through a relay that `onElement` may stall: the
    /// server sends each stream one event (`id` its number), then holds it open, or ends the first one when
    /// `endsFirstStream`. Returns the ids of the first two events (within ten seconds), whether each exchange
    /// connected anew, and how many streams the server served.
    private static func streamThroughRelay(
        endsFirstStream: Bool, onElement: @escaping @Sendable (LoopbackTCPRelay, EventStream.Element) -> Void
    ) async throws -> (events: [String], connected: [Bool], served: Int) {
        let served = Mutex(0)
        var run: (events: [String], connected: [Bool], served: Int) = ([], [], 0)
        try await TLSFixture.run(respond: { _ in
            let number = served.withLock { served in
                served += 1
                return served
            }
            return LoopbackResponse(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                body: .stream { writer in
                    try await writer.write(Array("id: \(number)\ndata: hello\n\n".utf8))
                    // Held open, silent, until the client goes (or, the first, ended).
                    if !endsFirstStream || number > 1 { try await Task.sleep(for: .seconds(60)) }
                })
        }) { fixture in
            let relay = try LoopbackTCPRelay(targetPort: fixture.proxy.process.port)
            defer { relay.stop() }
            let connected = Mutex<[Bool]>([])
            var network = fixture.trusted
            network.observer = { record in connected.withLock { $0.append(record.timings.connect > .zero) } }
            let events = try await HTTPClient.withClient { client in
                let stream = EventStream(
                    url: "https://127.0.0.1:\(relay.port)/events",
                    configuration: .init(
                        backoff: .init(initialDelay: .milliseconds(50), jitter: 0), idleTimeout: .seconds(1)),
                    transport: .http(client, network: network), clock: ContinuousClock(), headers: { [] })
                return await Self.firstEventIDs(2, of: stream, within: .seconds(10)) { onElement(relay, $0) }
            }
            run = (events, connected.withLock { $0 }, served.withLock { $0 })
        }
        return run
    }

    /// The ids of the first `count` events of `stream`, or fewer when `limit` passes first; `onElement` sees every
    /// element first.
    private static func firstEventIDs(
        _ count: Int, of stream: EventStream, within limit: Duration,
        onElement: @escaping @Sendable (EventStream.Element) -> Void
    ) async -> [String] {
        await withTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var ids: [String] = []
                await stream.run { element in
                    onElement(element)
                    guard case .event(let event) = element else { return }
                    ids.append(event.id ?? "")
                    if ids.count == count { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return ids
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            while let finished = await group.next() {
                if let ids = finished { return ids }
                group.cancelAll()
            }
            return []
        }
    }
}
