import ResolveKitCore
import Testing

@testable import ResolveKitTelemetry

struct BatchSpanStateMachineTests {
    typealias Machine = BatchSpanProcessor.StateMachine<FinishedSpan>

    static func machine(queue: Int = 4, batch: Int = 2, attempts: Int = 3) -> Machine {
        Machine(
            configuration: Machine.Configuration(
                maxQueueSize: queue, maxBatchSize: batch, scheduleDelay: .seconds(5), maxAttempts: attempts,
                initialBackoff: .seconds(1), maxBackoff: .seconds(30)))
    }

    static func span(_ number: UInt64) -> FinishedSpan {
        FinishedSpan(
            context: SpanContext(traceID: TraceID(high: 0, low: number), spanID: SpanID(rawValue: number)),
            parentSpanID: nil, name: "s\(number)", startTimeUnixNano: number, endTimeUnixNano: number + 1)
    }

    @Test func anIdleLoopWaitsForTheFirstSpanThenForTheSchedule() {
        var machine = Self.machine()
        #expect(machine.nextAction() == .wait(nil))
        #expect(machine.spanEnded(Self.span(1)) == .queuedAndWake)
        machine.waitEnded(timedOut: false)
        #expect(machine.nextAction() == .wait(.seconds(5)))
        machine.waitEnded(timedOut: true)
        #expect(machine.nextAction() == .export([Self.span(1)]))
        #expect(machine.exportEnded(.success, jitter: 0) == [])
        #expect(machine.exported == 1)
        #expect(machine.nextAction() == .wait(nil))
    }

    @Test func aPartialSuccessCountsTheRejectedAsDroppedAndSendsNothingAgain() {
        var machine = Self.machine(queue: 4, batch: 3)
        for number: UInt64 in 1...3 { _ = machine.spanEnded(Self.span(number)) }
        let (done, _) = machine.flushRequested(id: 7)
        #expect(!done)
        guard case .export(let batch) = machine.nextAction() else {
            Issue.record("a full batch leaves at once")
            return
        }
        #expect(batch.count == 3)
        #expect(machine.exportEnded(.partialSuccess(rejected: 2), jitter: 0) == [7], "the flush is settled")
        #expect(machine.exported == 1)
        #expect(machine.dropped[.rejected] == 2)
        #expect(machine.nextAction() == .wait(nil), "nothing is sent again")
    }

    @Test func aFullBatchWakesTheLoopAndLeavesAtOnce() {
        var machine = Self.machine()
        _ = machine.spanEnded(Self.span(1))
        #expect(machine.nextAction() == .wait(.seconds(5)))
        #expect(machine.spanEnded(Self.span(2)) == .queuedAndWake)
        machine.waitEnded(timedOut: false)
        #expect(machine.nextAction() == .export([Self.span(1), Self.span(2)]))
    }

    @Test func aFullQueueDropsAndCounts() {
        var machine = Self.machine(queue: 2, batch: 2)
        _ = machine.spanEnded(Self.span(1))
        _ = machine.spanEnded(Self.span(2))
        #expect(machine.spanEnded(Self.span(3)) == .dropped(.queueFull))
        #expect(machine.dropped[.queueFull] == 1)
        #expect(machine.queuedCount == 2)
    }

    @Test func aRetryWaitsForRetryAfterThenSendsTheSameBatch() {
        var machine = Self.machine()
        _ = machine.spanEnded(Self.span(1))
        _ = machine.spanEnded(Self.span(2))
        let batch = [Self.span(1), Self.span(2)]
        #expect(machine.nextAction() == .export(batch))
        _ = machine.exportEnded(.retry(after: .seconds(7)), jitter: 0)
        #expect(machine.nextAction() == .wait(.seconds(7)))
        #expect(machine.spanEnded(Self.span(3)) == .queued, "a retry's wait is not cut short by new spans")
        machine.waitEnded(timedOut: true)
        #expect(machine.nextAction() == .export(batch))
        _ = machine.exportEnded(.success, jitter: 0)
        #expect(machine.exported == 2)
    }

    @Test func withoutRetryAfterTheBackoffDoublesWithinItsJitter() {
        var machine = Self.machine(attempts: 4)
        _ = machine.spanEnded(Self.span(1))
        _ = machine.spanEnded(Self.span(2))
        _ = machine.nextAction()
        _ = machine.exportEnded(.retry(after: nil), jitter: 0)
        #expect(machine.nextAction() == .wait(.seconds(1)))
        machine.waitEnded(timedOut: true)
        _ = machine.nextAction()
        _ = machine.exportEnded(.retry(after: nil), jitter: 1)
        #expect(machine.nextAction() == .wait(.milliseconds(2400)))
        machine.waitEnded(timedOut: true)
        _ = machine.nextAction()
        _ = machine.exportEnded(.retry(after: .seconds(600)), jitter: 0)
        #expect(machine.nextAction() == .wait(.seconds(30)), "Retry-After is capped at the longest backoff")
    }

    @Test func aBatchIsDroppedAfterItsLastAttemptOrARefusal() {
        var machine = Self.machine(attempts: 2)
        _ = machine.spanEnded(Self.span(1))
        _ = machine.spanEnded(Self.span(2))
        _ = machine.nextAction()
        _ = machine.exportEnded(.retry(after: nil), jitter: 0)
        _ = machine.nextAction()
        machine.waitEnded(timedOut: true)
        _ = machine.nextAction()
        _ = machine.exportEnded(.retry(after: nil), jitter: 0)
        #expect(machine.dropped[.exportFailed] == 2)
        _ = machine.spanEnded(Self.span(3))
        _ = machine.spanEnded(Self.span(4))
        _ = machine.nextAction()
        _ = machine.exportEnded(.failure, jitter: 0)
        #expect(machine.dropped[.exportFailed] == 4)
    }

    @Test func aFlushExportsWithoutWaitingAndCompletesWhenItsSpansAreSettled() {
        var machine = Self.machine(queue: 8, batch: 2)
        for number in UInt64(1)...3 { _ = machine.spanEnded(Self.span(number)) }
        #expect(machine.nextAction() == .export([Self.span(1), Self.span(2)]))
        #expect(machine.flushRequested(id: 9) == (done: false, wake: false))
        _ = machine.spanEnded(Self.span(4))
        #expect(machine.exportEnded(.success, jitter: 0) == [])
        #expect(machine.nextAction() == .export([Self.span(3), Self.span(4)]))
        #expect(machine.exportEnded(.success, jitter: 0) == [9])
        #expect(machine.flushRequested(id: 10) == (done: true, wake: false))
    }

    /// Exports run at normal priority while someone waits for them, at the kernel's idle priority otherwise.
    @Test func exportsAreUrgentWhileAFlushOrShutdownWaits() {
        var machine = Self.machine(queue: 8, batch: 2)
        for number: UInt64 in 1...3 { _ = machine.spanEnded(Self.span(number)) }
        #expect(machine.nextAction() == .export([Self.span(1), Self.span(2)]))
        #expect(!machine.isUrgent, "a full batch on its own is routine")
        _ = machine.exportEnded(.success, jitter: 0)
        #expect(!machine.flushRequested(id: 1).done)
        #expect(machine.isUrgent)
        #expect(machine.nextAction() == .export([Self.span(3)]))
        #expect(machine.exportEnded(.success, jitter: 0) == [1])
        #expect(!machine.isUrgent, "the flush is settled")
        _ = machine.spanEnded(Self.span(4))
        _ = machine.flushRequested(id: 2)
        machine.flushAbandoned(id: 2)
        #expect(!machine.isUrgent, "nobody waits any more")
        _ = machine.shutdownRequested()
        #expect(machine.isUrgent)
        #expect(machine.nextAction() == .export([Self.span(4)]))
    }

    @Test func shutdownExportsWhatIsQueuedThenFinishesAndDropsLaterSpans() {
        var machine = Self.machine()
        _ = machine.spanEnded(Self.span(1))
        #expect(machine.nextAction() == .wait(.seconds(5)))
        let wake = machine.shutdownRequested()
        #expect(wake)
        machine.waitEnded(timedOut: false)
        #expect(machine.spanEnded(Self.span(2)) == .dropped(.shutdown))
        #expect(machine.nextAction() == .export([Self.span(1)]))
        _ = machine.exportEnded(.success, jitter: 0)
        #expect(machine.nextAction() == .finish)
        #expect(machine.nextAction() == .finish)
    }

    @Test func abandoningAtTheDeadlineDropsTheQueueButLetsTheExportInFlightSettle() {
        var machine = Self.machine(queue: 8, batch: 2)
        for number in UInt64(1)...5 { _ = machine.spanEnded(Self.span(number)) }
        #expect(machine.nextAction() == .export([Self.span(1), Self.span(2)]))
        _ = machine.shutdownRequested()
        _ = machine.abandon()
        #expect(machine.dropped[.shutdown] == 3)
        _ = machine.exportEnded(.success, jitter: 0)
        #expect(machine.exported == 2)
        #expect(machine.nextAction() == .finish)
    }
}
