import ResolveKitHTTP
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    typealias F = Frames
    static let url = EventStreamHarness.url

    @Test func aServerThatEndsTheStreamIsResumedAtOnceWithTheCursorAndEveryEventArrivesOnce() async {
        var harness = EventStreamHarness([
            .stream([": connected\n\n", F.frame("1", "a") + F.frame("2", "b")], end: .finish),
            .stream([": connected\n\n", F.frame("2", "b") + F.frame("3", "c")], end: .finish),
            .stream([F.frame("4", "d")], end: .stayOpen),
        ])
        let expected: [EventStream.Element] = [
            F.connecting, F.open, .comment("connected"), F.event("1", "a"), F.event("2", "b"), F.reconnecting(0, 0),
            F.connecting, F.open, .comment("connected"), F.event("3", "c"), F.reconnecting(0, 0),
            F.connecting, F.open, F.event("4", "d"),
        ]
        #expect(await harness.next(expected.count) == expected)
        #expect(harness.transport.urls == [Self.url, Self.url + "?cursor=2", Self.url + "?cursor=3"])
        #expect(harness.clock.now == ManualClock.Instant(offset: .zero))
        let (rest, termination) = await harness.cancel()
        #expect(rest == [F.closed])
        #expect(termination == .cancelled)
    }

    @Test func aDropMidFrameDiscardsThePartialEventAndReceivesItAfterResuming() async {
        var harness = EventStreamHarness([
            .stream([F.frame("1", "a"), "id: 2\nevent: t\ndata: {\"par"], end: .fail),
            .stream([F.frame("2", "{\"partial\": false}")], end: .stayOpen),
        ])
        #expect(await harness.next(4) == [F.connecting, F.open, F.event("1", "a"), F.reconnecting(1, 1)])
        await harness.fireTimer(at: 1)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("2", "{\"partial\": false}")])
        #expect(harness.transport.urls == [Self.url, Self.url + "?cursor=1"])
        _ = await harness.cancel()
    }

    @Test func unavailableServerIsRetriedAfterOneThenTwoSeconds() async {
        var harness = EventStreamHarness([
            .status(503), .status(503), .stream([F.frame("1", "a")], end: .stayOpen),
        ])
        #expect(await harness.next(2) == [F.connecting, F.reconnecting(1, 1)])
        await harness.fireTimer(at: 1)
        #expect(await harness.next(2) == [F.connecting, F.reconnecting(2, 2)])
        await harness.fireTimer(at: 3)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("1", "a")])
        #expect(harness.transport.cancellations >= 2)
        _ = await harness.cancel()
    }

    @Test func aRetryFieldFromTheServerLengthensTheWaitAfterADrop() async {
        var harness = EventStreamHarness([
            .stream(["retry: 7000\n\n", F.frame("1", "a")], end: .fail),
            .stream([F.frame("2", "b")], end: .stayOpen),
        ])
        #expect(await harness.next(4) == [F.connecting, F.open, F.event("1", "a"), F.reconnecting(1, 7)])
        await harness.fireTimer(at: 7)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("2", "b")])
        #expect(harness.transport.urls == [Self.url, Self.url + "?cursor=1"])
        _ = await harness.cancel()
    }

    @Test func anUnreachableServerIsRetriedWithBackoff() async {
        var harness = EventStreamHarness([.unreachable, .stream([F.frame("1", "a")], end: .stayOpen)])
        #expect(await harness.next(2) == [F.connecting, F.reconnecting(1, 1)])
        await harness.fireTimer(at: 1)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("1", "a")])
        _ = await harness.cancel()
    }

    @Test(arguments: [401, 403, 404, 410])
    func aStatusThatRetryingCannotFixEndsTheStreamWithStatusAndBody(status: Int) async {
        let body = #"{"detail":"Session expired"}"#
        var harness = EventStreamHarness([.status(status, body: body)])
        let error = EventStreamError(
            code: .httpStatus, message: "The event stream request was answered with HTTP \(status)", status: status,
            body: Array(body.utf8))
        let (elements, termination) = await harness.finish()
        #expect(elements == [F.connecting, .state(.failed(error))])
        #expect(termination == .failed(error))
        #expect(harness.transport.requests.count == 1)
    }

    @Test func theIdleWatchdogReconnectsWhenNothingArrivesAndKeepAlivesPostponeIt() async {
        var harness = EventStreamHarness(
            [.stream([": connected\n\n"], end: .stayOpen), .stream([F.frame("1", "a")], end: .stayOpen)],
            configuration: EventStreamHarness.configuration(idleTimeout: .seconds(45)))
        #expect(await harness.next(3) == [F.connecting, F.open, .comment("connected")])
        await harness.clock.waitForSleepers(count: 1)
        #expect(harness.clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(45))])
        harness.clock.advance(by: .seconds(30))
        harness.transport.push(": keep-alive\n\n")
        #expect(await harness.next(1) == [.comment("keep-alive")])
        harness.clock.advance(by: .seconds(15))
        await harness.fireTimer(at: 75)
        #expect(await harness.next(1) == [F.reconnecting(1, 1)])
        await harness.fireTimer(at: 76)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("1", "a")])
        #expect(harness.transport.cancellations >= 1)
        _ = await harness.cancel()
    }

    @Test func aServerThatAcceptsButNeverAnswersIsGivenUpAfterTheIdleTimeoutAndRetried() async {
        var harness = EventStreamHarness(
            [.noAnswer, .stream([F.frame("1", "a")], end: .stayOpen)],
            configuration: EventStreamHarness.configuration(idleTimeout: .seconds(45)))
        #expect(await harness.next(1) == [F.connecting])
        await harness.fireTimer(at: 45)
        #expect(await harness.next(1) == [F.reconnecting(1, 1)])
        await harness.fireTimer(at: 46)
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("1", "a")])
        #expect(harness.transport.requests.count == 2)
        // The attempt given up on was told, so a transport gives up its connection; the one answered was not.
        #expect(harness.transport.requests.map(\.stallSignal.isFired) == [true, false])
        _ = await harness.cancel()
    }

    @Test func cancellingAnOpenStreamClosesTheConnection() async {
        var harness = EventStreamHarness([.stream([F.frame("1", "a")], end: .stayOpen)])
        #expect(await harness.next(3) == [F.connecting, F.open, F.event("1", "a")])
        let (rest, termination) = await harness.cancel()
        #expect(rest == [F.closed])
        #expect(termination == .cancelled)
        #expect(harness.transport.cancellations >= 1)
    }

    @Test func cancellingDuringTheBackoffStopsWithoutWaitingForTheTimer() async {
        var harness = EventStreamHarness([.status(500)])
        #expect(await harness.next(2) == [F.connecting, F.reconnecting(1, 1)])
        await harness.clock.waitForSleepers(count: 1)
        let (rest, termination) = await harness.cancel()
        #expect(rest == [F.closed])
        #expect(termination == .cancelled)
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.transport.requests.count == 1)
    }

    @Test func headersAreFetchedAgainForEveryConnect() async {
        var harness = EventStreamHarness([.stream([F.frame("1", "a")], end: .finish)])
        #expect(
            await harness.next(6) == [
                F.connecting, F.open, F.event("1", "a"), F.reconnecting(0, 0), F.connecting, F.open,
            ])
        let tokens = harness.transport.requests.map { $0.headers.map(\.value) }
        #expect(tokens == [["token-1"], ["token-2"]])
        #expect(harness.headerCalls.calls == 2)
        _ = await harness.cancel()
    }

    @Test func anOversizeEventIsReportedAndTheStreamGoesOn() async {
        let huge = String(repeating: "x", count: 300)
        var harness = EventStreamHarness([.stream([F.frame("1", huge) + F.frame("2", "b")], end: .stayOpen)])
        let elements = await harness.next(4)
        #expect(elements.prefix(2) == [F.connecting, F.open])
        guard case .discarded(let error) = elements[2] else {
            Issue.record("expected a discarded event, got \(elements[2])")
            return
        }
        #expect(error.code == .lineTooLong)
        #expect(elements[3] == F.event("2", "b"))
        _ = await harness.cancel()
    }

    @Test func anErrorThrownByTheConsumerEndsTheRunAndClosesTheConnection() async {
        struct Stop: Error {}
        let transport = ScriptedTransport([.stream([F.frame("1", "a"), F.frame("2", "b")], end: .stayOpen)])
        let stream = EventStream(
            url: Self.url, configuration: EventStreamHarness.configuration(), transport: transport.transport,
            clock: ManualClock(), headers: { [] })
        var seen: [EventStream.Element] = []
        await #expect(throws: Stop.self) {
            try await stream.run { (element) throws(Stop) in
                seen.append(element)
                if case .event = element { throw Stop() }
            }
        }
        #expect(seen == [F.connecting, F.open, F.event("1", "a")])
        #expect(transport.cancellations >= 1)
    }
}
