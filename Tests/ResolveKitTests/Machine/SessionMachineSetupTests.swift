import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

/// Setup, the connection's lifecycle, the stream's failures and the capability token, as event scripts.
struct SessionMachineSetupTests {
    typealias Script = MachineScript

    @Test func withoutAnAPIKeyTheRunIsBlockedBeforeAnyRequest() {
        var script = Script()
        let actions = script.feed(.start(Restored(), hasAPIKey: false))
        #expect(Script.requests(actions).isEmpty)
        #expect(Script.states(actions).contains { if case .blocked(let error) = $0 { error.code == .missingAPIKey } else { false } })
        #expect(actions.last == .finish)
    }

    @Test func setupRegistersCreatesTheSessionAndOpensTheStreamFromTheStoredCursor() {
        var script = Script()
        let restored = Restored(session: SessionRecord(sessionID: "s1", cursor: "41-0"))
        let start = script.feed(.start(restored, hasAPIKey: true))
        #expect(Script.requests(start).map(\.call) == [.register])
        #expect(start.contains(.arm(.connectBudget, at: .seconds(30))))
        let registered = script.feed(.answered(.setup(epoch: 0), .success(.registered)))
        #expect(Script.requests(registered).map(\.call) == [.createSession(reuse: true)])
        let created = script.feed(.answered(
            .setup(epoch: 0), .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(Script.requests(created).map(\.call) == [.history])
        let ready = script.feed(.answered(.setup(epoch: 0), .success(.history([]))))
        #expect(Script.streams(ready).map(\.cursor) == ["41-0"])
        #expect(ready.contains { if case .arm(.tokenRefresh, _) = $0 { true } else { false } })
        let open = script.feed(.stream(generation: script.generation, .state(.open)))
        #expect(Script.states(open) == [.active])
        #expect(open.contains(.disarm(.connectBudget)))
    }

    @Test func aFailedSetupIsRetriedWithBackoffAndNamesItsCauseUntilTheBudgetRunsOut() {
        var settings = SessionSettings(functions: Script.functions)
        settings.reconnectAttemptBudget = 2
        var script = Script(settings: settings)
        script.feed(.start(Restored(), hasAPIKey: true))
        let failed = script.feed(.answered(.setup(epoch: 0), Script.transportFailure(.registration)))
        guard case .reconnecting(attempt: 1, _, let cause) = Script.states(failed).last, cause != nil else {
            Issue.record("no reconnecting state in \(failed)")
            return
        }
        let retried = script.advance(.seconds(2))
        #expect(Script.requests(retried).map(\.call) == [.register])
        script.feed(.answered(.setup(epoch: 0), Script.httpFailure(503, .registration)))
        script.advance(.seconds(3))
        let gaveUp = script.feed(.answered(.setup(epoch: 0), Script.transportFailure(.registration)))
        guard case .failed(let error) = Script.states(gaveUp).last else {
            Issue.record("the run did not fail: \(gaveUp)")
            return
        }
        #expect(error.code == .unreachable)
        #expect(error.message.contains("Connection refused"))
        #expect(gaveUp.last == .finish)
    }

    @Test(arguments: [(401, ResolveKitError.Code.apiKeyRejected), (403, .chatUnavailable)])
    func aRefusedKeyOrAppBlocksAtOnce(status: Int, code: ResolveKitError.Code) {
        var script = Script()
        script.feed(.start(Restored(), hasAPIKey: true))
        let actions = script.feed(.answered(.setup(epoch: 0), Script.httpFailure(status, .registration)))
        #expect(Script.states(actions).contains { if case .blocked(let error) = $0 { error.code == code } else { false } })
        #expect(Script.requests(actions).isEmpty)
    }

    @Test func anUnsupportedSDKBlocksTheRun() {
        var script = Script()
        script.feed(.start(Restored(), hasAPIKey: true))
        let actions = script.feed(.answered(.setup(epoch: 0), .failure(.unsupported(minimum: "9.0.0", majors: [9]))))
        #expect(Script.states(actions).contains { if case .blocked(let error) = $0 { error.code == .unsupportedSDK } else { false } })
    }

    @Test func withoutAnOpenStreamWithinTheConnectBudgetTheRunFailsUnreachableWithTheLastCause() {
        var script = Script()
        script.feed(.start(Restored(), hasAPIKey: true))
        script.feed(.answered(.setup(epoch: 0), Script.transportFailure(.registration)))
        let actions = script.advance(.seconds(30))
        let failure = Script.states(actions).compactMap { if case .failed(let error) = $0 { error } else { nil } }.first
        #expect(failure?.code == .unreachable)
        #expect(failure?.message.contains("last cause") == true)
    }

    @Test func aRoutineReconnectKeepsTheSessionAndATroubledOneIsShownThenReconnected() {
        var script = Script()
        script.open()
        #expect(Script.states(script.feed(.stream(generation: script.generation, .state(.reconnecting(attempt: 0, delay: .zero))))).isEmpty)
        let troubled = script.feed(.stream(generation: script.generation, .state(.reconnecting(attempt: 2, delay: .seconds(2)))))
        #expect(Script.states(troubled) == [.reconnecting(attempt: 2, delay: .seconds(2))])
        let back = script.feed(.stream(generation: script.generation, .state(.open)))
        #expect(Script.states(back) == [.reconnected, .active])
    }

    @Test func anExpiredTokenOnTheStreamIsRefreshedOnceAndASecondRefusalBlocks() {
        var script = Script()
        script.open()
        let refused = script.feed(.streamEnded(generation: script.generation, .failed(.httpStatus(
            403, body: Array(Script.chatUnavailableBody.utf8)))))
        let tag = Script.request(refused) { $0 == .createSession(reuse: true) }
        #expect(tag == .refresh(.stream, epoch: 0))
        let refreshed = script.feed(.answered(.refresh(.stream, epoch: 0), .success(.session(
            Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(Script.streams(refreshed).count == 1)
        let again = script.feed(.streamEnded(generation: script.generation, .failed(.httpStatus(
            403, body: Array(Script.chatUnavailableBody.utf8)))))
        #expect(Script.states(again).contains { if case .blocked(let error) = $0 { error.code == .chatUnavailable } else { false } })
    }

    /// A stream that drops says why it reconnects, as setup's retries do, with the wait in words a log can show.
    @Test func aReconnectingStreamShowsItsCause() {
        var script = Script()
        script.open()
        let cause = EventStreamError.httpStatus(503, body: [])
        script.feed(.streamWillReconnect(generation: script.generation, cause: cause))
        let shown = script.feed(
            .stream(generation: script.generation, .state(.reconnecting(attempt: 2, delay: .milliseconds(1_735)))))
        let state = Script.states(shown).last
        #expect(state == .reconnecting(attempt: 2, delay: .milliseconds(1_735), cause: ResolveKitError(connectFailure: cause)))
        #expect(state?.description.hasPrefix("reconnecting (attempt 2, in 1.73 s): ") == true)
    }

    @Test func aStreamAnswered410StartsANewSessionAndTellsTheUserOnce() {
        var script = Script()
        script.open()
        let gone = script.feed(.streamEnded(generation: script.generation, Script.streamFailure(410)))
        #expect(gone.contains(.closeStream))
        #expect(Script.requests(gone).map(\.call) == [.register])
        script.feed(.answered(.setup(epoch: script.epoch), .success(.registered)))
        #expect(Script.requests(script.log).last?.call == .createSession(reuse: false))
        let opened = script.feed(.answered(.setup(epoch: script.epoch), .success(.session(
            Script.sessionJSON("s2", from: script.date)))))
        #expect(Script.notices(opened) == ["The conversation ended on the server (it expired or was handed off); a new one started."])
        #expect(Script.streams(opened).map(\.cursor) == [nil])
    }

    @Test func aStreamAnswered404CreatesTheSessionAgainReusingIt() {
        var script = Script()
        script.open()
        script.feed(.streamEnded(generation: script.generation, Script.streamFailure(404)))
        script.feed(.answered(.setup(epoch: script.epoch), .success(.registered)))
        #expect(Script.requests(script.log).last?.call == .createSession(reuse: true))
    }

    @Test func aStreamThatSpentItsReconnectBudgetEndsTheRunUnreachable() {
        var script = Script()
        script.open()
        let error = EventStreamError(code: .attemptsExhausted, message: "Gave up after 5 attempts")
        let actions = script.feed(.streamEnded(generation: script.generation, .failed(error)))
        #expect(Script.states(actions).contains { if case .failed(let error) = $0 { error.code == .unreachable } else { false } })
    }

    @Test func theTokenIsRefreshedAMinuteBeforeItExpiresAndAnotherSessionInTheAnswerReplacesTheOld() {
        var script = Script()
        script.open()
        let refresh = script.advance(.seconds(3540))
        #expect(Script.request(refresh) { $0 == .createSession(reuse: true) } == .refresh(.scheduled, epoch: 0))
        let replaced = script.feed(.answered(.refresh(.scheduled, epoch: 0), .success(.session(
            Script.sessionJSON("s2", from: script.date)))))
        #expect(replaced.contains(.closeStream))
        #expect(Script.requests(replaced).map(\.call) == [.register])
    }

    @Test func elementsOfAStreamThatWasReplacedAreIgnored() {
        var script = Script()
        script.open()
        let old = script.generation
        script.feed(.streamEnded(generation: old, .failed(.httpStatus(403, body: Array(Script.chatUnavailableBody.utf8)))))
        script.feed(.answered(.refresh(.stream, epoch: 0), .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(script.generation == old + 1)
        #expect(script.feed(.streamEnded(generation: old, Script.streamFailure(410))).isEmpty)
    }

    @Test func stopAnswersEveryWaiterAndFinishes() {
        var script = Script()
        script.open()
        let asking = script.waiter()
        script.feed(.ask(asking, text: "hi", requestID: "r1", timeout: nil))
        let stopped = script.feed(.stop)
        guard case .turn(.failure(let error)) = Script.replies(stopped)[asking] else {
            Issue.record("the ask was not answered: \(stopped)")
            return
        }
        #expect(error.code == .cancelled)
        #expect(stopped.last == .finish)
        let late = script.waiter()
        #expect(Script.replies(script.feed(.ask(late, text: "hi", requestID: "r2", timeout: nil)))[late] != nil)
    }
}
