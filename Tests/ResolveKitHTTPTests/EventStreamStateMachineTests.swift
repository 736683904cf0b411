import ResolveKitHTTP
import Testing

struct EventStreamStateMachineTests {
    typealias Machine = EventStream.StateMachine

    static func configuration(unit: Double = 0.5, maxAttempts: Int? = nil, capacity: Int = 1024)
        -> EventStream.Configuration
    {
        EventStream.Configuration(
            backoff: EventStream.Backoff(maxAttempts: maxAttempts, random: { unit }), recentEventIDCapacity: capacity)
    }

    /// A machine with an open connection since `at`.
    static func openMachine(_ configuration: EventStream.Configuration = configuration(), at: Duration = .zero)
        -> Machine
    {
        var machine = Machine(configuration: configuration, cursor: nil)
        _ = machine.start()
        #expect(machine.responded(status: 200, body: [], at: at) == .read)
        return machine
    }

    static let broken = EventStreamError(code: .transport, message: "reset")

    @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 30), (7, 30), (20, 30), (200, 30)])
    func backoffDoublesFromOneSecondUpToThirtyWithoutJitter(attempt: Int, seconds: Int) {
        #expect(EventStream.Backoff().delay(forAttempt: attempt, unit: 0.5) == .seconds(seconds))
    }

    @Test(arguments: [1, 3, 6, 9])
    func jitterStaysWithinTwentyPercent(attempt: Int) {
        let backoff = EventStream.Backoff()
        let plain = backoff.delay(forAttempt: attempt, unit: 0.5)
        let low = backoff.delay(forAttempt: attempt, unit: 0)
        let high = backoff.delay(forAttempt: attempt, unit: 0.999_999)
        #expect(low == plain * 0.8)
        #expect(high > plain * 1.199 && high < plain * 1.2)
        for unit in stride(from: 0.0, to: 1.0, by: 0.05) {
            let delay = backoff.delay(forAttempt: attempt, unit: unit)
            #expect(delay >= low && delay <= high)
        }
    }

    @Test func consecutiveFailedConnectsFollowTheBackoffSchedule() {
        var machine = Machine(configuration: Self.configuration(), cursor: "c1")
        #expect(machine.start() == .connect(cursor: "c1"))
        var delays: [Duration] = []
        for _ in 0..<7 {
            guard case .reconnect(_, let delay) = machine.connectFailed(Self.broken) else { break }
            delays.append(delay)
            #expect(machine.reconnectDelayElapsed() == .connect(cursor: "c1"))
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
    }

    @Test func theAttemptBudgetEndsTheStreamWithTheLastFailure() {
        var machine = Machine(configuration: Self.configuration(maxAttempts: 2), cursor: nil)
        _ = machine.start()
        #expect(
            machine.responded(status: 503, body: [], at: .zero) == .retry(.reconnect(attempt: 1, delay: .seconds(1))))
        _ = machine.reconnectDelayElapsed()
        #expect(machine.connectFailed(Self.broken) == .reconnect(attempt: 2, delay: .seconds(2)))
        _ = machine.reconnectDelayElapsed()
        guard case .retry(.fail(let error)) = machine.responded(status: 502, body: Array("down".utf8), at: .zero) else {
            Issue.record("expected the budget to end the stream")
            return
        }
        #expect(error.code == .attemptsExhausted)
        #expect(error.status == 502)
        #expect(error.body == Array("down".utf8))
    }

    @Test(arguments: [401, 403, 404, 410, 405, 422])
    func clientErrorsAreTerminalAndCarryStatusAndBody(status: Int) {
        var machine = Machine(configuration: Self.configuration(), cursor: nil)
        _ = machine.start()
        let body = Array(#"{"detail":"Session expired"}"#.utf8)
        #expect(
            machine.responded(status: status, body: body, at: .zero) == .retry(.fail(.httpStatus(status, body: body))))
    }

    @Test(arguments: [400, 408, 429, 500, 502, 503, 504, 302])
    func transientStatusesAreRetriedWithBackoff(status: Int) {
        var machine = Machine(configuration: Self.configuration(), cursor: nil)
        _ = machine.start()
        #expect(
            machine.responded(status: status, body: [], at: .zero) == .retry(.reconnect(attempt: 1, delay: .seconds(1)))
        )
    }

    @Test func aCleanEndOfAHealthyStreamReconnectsAtOnceWithoutUsingAnAttempt() {
        var machine = Self.openMachine(Self.configuration(maxAttempts: 1))
        #expect(machine.connectionEnded(.endOfStream, at: .seconds(300)) == .reconnect(attempt: 0, delay: .zero))
        #expect(machine.reconnectDelayElapsed() == .connect(cursor: nil))
        #expect(machine.responded(status: 200, body: [], at: .seconds(300)) == .read)
        #expect(machine.received(SSEEvent(id: "1", data: "x")) == .deliver)
        #expect(machine.connectionEnded(.endOfStream, at: .seconds(301)) == .reconnect(attempt: 0, delay: .zero))
    }

    @Test(arguments: [
        (Duration.milliseconds(500), [1, 2, 4]),  // shorter than the backoff: the backoff stands
        (Duration.seconds(3), [3, 3, 4]),  // longer: the server's time is the floor
        (Duration.seconds(3600), [30, 30, 30]),  // never beyond the maximum delay
    ])
    func theServersRetryTimeIsTheShortestWaitAfterAFailure(requested: Duration, expectedSeconds: [Int]) {
        var machine = Machine(configuration: Self.configuration(), cursor: nil)
        _ = machine.start()
        machine.serverReconnectionTime = requested
        var delays: [Duration] = []
        for _ in expectedSeconds {
            guard case .reconnect(_, let delay) = machine.connectFailed(Self.broken) else { break }
            delays.append(delay)
            _ = machine.reconnectDelayElapsed()
        }
        #expect(delays == expectedSeconds.map { .seconds($0) })
    }

    @Test func theServersRetryTimeDoesNotDelayTheRoutineReconnect() {
        var machine = Self.openMachine()
        machine.serverReconnectionTime = .seconds(10)
        #expect(machine.connectionEnded(.endOfStream, at: .seconds(300)) == .reconnect(attempt: 0, delay: .zero))
    }

    @Test func aCleanEndBeforeTheStreamBecameHealthyBacksOff() {
        var machine = Self.openMachine(at: .seconds(10))
        let action = machine.connectionEnded(.endOfStream, at: .seconds(11))
        #expect(action == .reconnect(attempt: 1, delay: .seconds(1)))
    }

    @Test(arguments: [
        (Duration.seconds(2), false, 3),  // short-lived and silent: the failure count goes on
        (Duration.seconds(5), false, 1),  // open for `healthyAfter`: reset
        (Duration.seconds(1), true, 1),  // delivered an event: reset
    ])
    func aHealthyConnectionResetsTheBackoff(openFor: Duration, deliversEvent: Bool, expectedAttempt: Int) {
        var machine = Machine(configuration: Self.configuration(), cursor: nil)
        _ = machine.start()
        _ = machine.connectFailed(Self.broken)
        _ = machine.reconnectDelayElapsed()
        _ = machine.connectFailed(Self.broken)
        _ = machine.reconnectDelayElapsed()
        #expect(machine.responded(status: 200, body: [], at: .seconds(100)) == .read)
        if deliversEvent { _ = machine.received(SSEEvent(id: "e", data: "x")) }
        guard
            case .reconnect(let attempt, _) = machine.connectionEnded(
                .transport(Self.broken), at: .seconds(100) + openFor)
        else {
            Issue.record("expected a reconnect")
            return
        }
        #expect(attempt == expectedAttempt)
    }

    @Test func anIdleTimeoutReconnectsWithBackoff() {
        var machine = Self.openMachine()
        #expect(machine.connectionEnded(.idleTimeout, at: .seconds(45)) == .reconnect(attempt: 1, delay: .seconds(1)))
    }

    @Test func theCursorFollowsTheLastEventIDAndAnEmptyIDClearsIt() {
        var machine = Self.openMachine()
        _ = machine.received(SSEEvent(id: "1795312329875-0", data: "a"))
        _ = machine.received(SSEEvent(id: nil, data: "b"))
        #expect(machine.cursor == "1795312329875-0")
        _ = machine.connectionEnded(.endOfStream, at: .seconds(1))
        #expect(machine.reconnectDelayElapsed() == .connect(cursor: "1795312329875-0"))
        _ = machine.responded(status: 200, body: [], at: .seconds(1))
        _ = machine.received(SSEEvent(id: "", data: "reset"))
        #expect(machine.cursor == nil)
    }

    @Test func replayedEventIDsAreDroppedAndEventsWithoutIDsAreNot() {
        var machine = Self.openMachine()
        #expect(machine.received(SSEEvent(id: "1", data: "a")) == .deliver)
        #expect(machine.received(SSEEvent(id: "2", data: "b")) == .deliver)
        _ = machine.connectionEnded(.endOfStream, at: .seconds(1))
        _ = machine.reconnectDelayElapsed()
        _ = machine.responded(status: 200, body: [], at: .seconds(1))
        #expect(machine.received(SSEEvent(id: "1", data: "a")) == .dropDuplicate)
        #expect(machine.received(SSEEvent(id: "3", data: "c")) == .deliver)
        #expect(machine.received(SSEEvent(data: "no id")) == .deliver)
        #expect(machine.received(SSEEvent(data: "no id")) == .deliver)
    }

    @Test func dedupeMemoryIsBoundedToTheConfiguredNumberOfIDs() {
        var machine = Self.openMachine(Self.configuration(capacity: 2))
        for id in ["a", "b", "c"] { #expect(machine.received(SSEEvent(id: id, data: id)) == .deliver) }
        #expect(machine.received(SSEEvent(id: "c", data: "c")) == .dropDuplicate)
        #expect(machine.received(SSEEvent(id: "a", data: "a")) == .deliver)
    }
}
