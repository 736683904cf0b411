import Testing

@testable import ResolveKit

struct SessionLifecycleTests {
    struct Cause: Error { var text: String }

    @Test func setupFailuresBackOffAndGiveUpPastTheRetryBudget() {
        var lifecycle = SessionLifecycle(retryBudget: 2)
        #expect(lifecycle.start() == .setUp(reuse: true))
        #expect(lifecycle.setupFailed(Cause(text: "503"), jitter: 0.5) == .retry(attempt: 1, delay: .seconds(1)))
        #expect(lifecycle.setupFailed(Cause(text: "503"), jitter: 0.5) == .retry(attempt: 2, delay: .seconds(2)))
        guard case .fail(let error) = lifecycle.setupFailed(Cause(text: "503"), jitter: 0.5) else {
            Issue.record("a third failure past a budget of 2 did not give up")
            return
        }
        #expect(error.code == .unreachable)
        #expect(error.message == "Gave up after 2 retries: Cause(text: \"503\")")
    }

    @Test func anOpenedSessionResetsTheFailuresAndTellsTheNoticeOnce() {
        var lifecycle = SessionLifecycle(retryBudget: nil)
        _ = lifecycle.setupFailed(Cause(text: "x"), jitter: 0.5)
        #expect(lifecycle.sessionEnded(.sessionGone("A new conversation started.")) == .setUp(reuse: false))
        #expect(lifecycle.opened() == "A new conversation started.")
        #expect(lifecycle.opened() == nil)
        #expect(lifecycle.setupFailed(Cause(text: "x"), jitter: 0.5) == .retry(attempt: 1, delay: .seconds(1)))
    }

    @Test(arguments: [
        (SessionMachine.SessionEnding.newSessionRequested, SessionLifecycle.Action.setUp(reuse: false)),
        (.sessionMissing, .setUp(reuse: true)),
        (.reopen("token"), .setUp(reuse: true)),
        (.blocked(ResolveKitError(.chatUnavailable, "off")), .block(ResolveKitError(.chatUnavailable, "off"))),
        (.failed(ResolveKitError(.backend, "422")), .fail(ResolveKitError(.backend, "422"))),
    ])
    func eachWayASessionEndsLeadsToOneNextStep(ending: SessionMachine.SessionEnding, next: SessionLifecycle.Action) {
        var lifecycle = SessionLifecycle(retryBudget: nil)
        #expect(lifecycle.sessionEnded(ending) == next)
    }

    @Test func aNewSessionAskedForBetweenSessionsIsNotAReuse() {
        var lifecycle = SessionLifecycle(retryBudget: nil)
        lifecycle.newSessionRequested()
        #expect(!lifecycle.reuses)
        _ = lifecycle.opened()
        #expect(lifecycle.reuses)
    }
}
