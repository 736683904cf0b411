import ResolveKitHTTP
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

    static let unknownHost = BackendError(
        code: .transport, endpoint: "GET /v1/sdk/compat", message: "no host",
        underlying: HTTPError(code: .connectFailed, message: "no host", curlCode: 6))
    static let refused = BackendError(
        code: .transport, endpoint: "GET /v1/sdk/compat", message: "refused",
        underlying: HTTPError(code: .connectFailed, message: "refused", curlCode: 7))

    @Test func aFailureNoRetryCanFixEndsARuntimeThatNeverConnectedAtOnce() {
        var lifecycle = SessionLifecycle(retryBudget: nil)
        guard case .fail(let error) = lifecycle.setupFailed(Self.unknownHost, jitter: 0.5) else {
            Issue.record("an unknown host was retried")
            return
        }
        #expect(error.code == .unreachable)
        #expect(!error.isRetryable)
        #expect(error.message.hasPrefix("Gave up at once, as retrying cannot help: GET /v1/sdk/compat"))
    }

    @Test func aFailureRetryingCanFixKeepsTheBudgetAndOnceConnectedSoDoesEveryOther() {
        var lifecycle = SessionLifecycle(retryBudget: 3)
        #expect(lifecycle.setupFailed(Self.refused, jitter: 0.5) == .retry(attempt: 1, delay: .seconds(1)))
        _ = lifecycle.opened()
        // Once a session opened, a name that stops resolving is more likely an outage than a mistake.
        #expect(lifecycle.setupFailed(Self.unknownHost, jitter: 0.5) == .retry(attempt: 1, delay: .seconds(1)))
    }
}
