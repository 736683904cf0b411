import Testing

@testable import ResolveKitRedis

/// Event scripts for the lease's decisions; times are offsets on the lease's clock, lease 6 s.
struct RedisLeaseStateMachineTests {
    typealias Machine = RedisLease.StateMachine

    @Test func renewalIsDueAtAThirdOfTheLeaseAndCallsMayStartUntilTwoThirds() {
        var machine = Machine(acquiredAt: .seconds(10), duration: .seconds(6))
        #expect(machine.next(at: .seconds(10)) == .wait(until: .seconds(12)))
        #expect(machine.mayStartCallsUntil == .seconds(14))
        #expect(machine.mayStartCalls(at: .milliseconds(13900)))
        #expect(!machine.mayStartCalls(at: .seconds(14)))
        #expect(machine.next(at: .seconds(12)) == .renew)
    }

    @Test func aRenewalCountsFromWhenItWasSent() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        #expect(machine.next(at: .seconds(2)) == .renew)
        machine.renewed(sentAt: .seconds(2))
        #expect(machine.expiresAt == .seconds(8))
        #expect(machine.next(at: .milliseconds(2500)) == .wait(until: .seconds(4)))
        #expect(machine.mayStartCalls(at: .milliseconds(5900)))
        #expect(!machine.mayStartCalls(at: .seconds(6)))
    }

    @Test func aFailedRenewalIsRetriedAndCallsStopBeforeTheLeaseRunsOut() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        #expect(machine.next(at: .seconds(2)) == .renew)
        machine.renewalFailed(at: .milliseconds(2500), lost: false, holder: nil, reason: "timeout")
        #expect(machine.phase == .failing("timeout"))
        #expect(machine.next(at: .milliseconds(2500)) == .wait(until: .milliseconds(3100)))
        #expect(machine.mayStartCalls(at: .milliseconds(3900)))
        machine.renewalFailed(at: .milliseconds(3500), lost: false, holder: nil, reason: "timeout")
        #expect(!machine.mayStartCalls(at: .seconds(4)))
        machine.renewalFailed(at: .milliseconds(5950), lost: false, holder: nil, reason: "timeout")
        #expect(machine.next(at: .milliseconds(5960)) == .wait(until: .milliseconds(6550)))
    }

    @Test func pastItsEndALeaseIsStillRenewedAndAnAnsweredRenewalTakesItBack() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        machine.renewalFailed(at: .seconds(2), lost: false, holder: nil, reason: "connection refused")
        #expect(machine.next(at: .seconds(9)) == .renew)
        #expect(machine.phase == .failing("connection refused"))
        #expect(!machine.mayStartCalls(at: .seconds(9)))
        machine.renewed(sentAt: .seconds(9))
        #expect(machine.phase == .held)
        #expect(machine.mayStartCalls(at: .seconds(10)))
        #expect(machine.next(at: .seconds(10)) == .wait(until: .seconds(11)))
    }

    @Test func aRenewalAfterFailuresRestoresTheLease() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        machine.renewalFailed(at: .seconds(2), lost: false, holder: nil, reason: "connection lost")
        machine.renewed(sentAt: .milliseconds(2600))
        #expect(machine.phase == .held)
        #expect(machine.mayStartCalls(at: .seconds(6)))
        #expect(machine.next(at: .seconds(3)) == .wait(until: .milliseconds(4600)))
    }

    @Test func aLeaseTakenByAnotherHolderStopsEverythingAtOnce() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        machine.renewalFailed(at: .seconds(2), lost: true, holder: "replica-b", reason: "lost")
        #expect(machine.phase == .lost(holder: "replica-b"))
        #expect(!machine.mayStartCalls(at: .seconds(2)))
        #expect(machine.next(at: .seconds(2)) == .stop)
        machine.renewed(sentAt: .seconds(2))
        #expect(machine.phase == .lost(holder: "replica-b"))
    }

    @Test func aReleasedLeaseStartsNoCallAndStopsRenewing() {
        var machine = Machine(acquiredAt: .zero, duration: .seconds(6))
        machine.released()
        #expect(!machine.mayStartCalls(at: .zero))
        #expect(machine.next(at: .zero) == .stop)
    }

    @Test(arguments: [(1, Duration.zero), (2, .milliseconds(50)), (3, .milliseconds(100)), (5, .milliseconds(400))])
    func backoffDoublesUpToItsMaximum(attempt: Int, delay: Duration) {
        let backoff = RedisBackoff(
            maximumAttempts: 6, initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
        #expect(backoff.delay(beforeAttempt: attempt) == delay)
        #expect(backoff.delay(beforeAttempt: 7) == nil)
    }
}
