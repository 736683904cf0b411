import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

/// `ask` and `sendMessage`, the turn lock, the watchdog and lost turns, as event scripts.
struct SessionMachineTurnTests {
    typealias Script = MachineScript

    /// Asks on an open session; returns the waiter.
    static func ask(_ script: inout Script, _ text: String = "what time is it", requestID: String = "req-1",
                    timeout: Duration? = nil) -> WaiterID {
        let waiter = script.waiter()
        script.feed(.ask(waiter, text: text, requestID: requestID, timeout: timeout))
        return waiter
    }

    /// SIGTERM during a turn: the drain waits for the turn's answer (within its timeout, which the driver keeps),
    /// and a question queued behind it or asked meanwhile is refused unsent instead of starting a turn.
    @Test func aDrainWaitsForTheTurnUnderWayAndRefusesQuestionsNotSent() {
        var script = Script()
        script.open()
        let running = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let queued = Self.ask(&script, "and the date?", requestID: "req-2")
        let drainer = script.waiter()
        let drain = script.feed(.drain(drainer))
        let notSent = ResolveKitError(.cancelled, "The service is shutting down; the question was not sent")
        #expect(Script.replies(drain)[queued] == .turn(.failure(notSent)))
        #expect(Script.replies(drain)[drainer] == nil)
        let late = Self.ask(&script, "one more", requestID: "req-3")
        #expect(Script.replies(script.eventActions)[late] == .turn(.failure(notSent)))
        #expect(Script.requests(script.log).filter { if case .message = $0.call { true } else { false } }.count == 1)
        let done = script.feed(script.turnComplete("It is 10:42."))
        guard case .turn(.success(let result)) = Script.replies(done)[running] else {
            Issue.record("the turn under way was not answered")
            return
        }
        #expect(result.text == "It is 10:42.")
        #expect(Script.replies(done)[drainer] == .done(.success(())))
    }

    @Test func anAskIsSentAcceptedFollowedAndAnsweredWithItsTurn() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        #expect(Script.request(script.log) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
        let accepted = script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        #expect(Script.publications(accepted).contains(.turnStarted(turnID: "turn-1")))
        #expect(accepted.contains { if case .arm(.turnWatchdog, _) = $0 { true } else { false } })
        let done = script.feed(script.turnComplete("It is 10:42."))
        guard case .turn(.success(let result)) = Script.replies(done)[waiter] else {
            Issue.record("no answer: \(done)")
            return
        }
        #expect(result.text == "It is 10:42.")
        #expect(result.ending == .answered)
        #expect(result.usage?.promptTokens == 3)
    }

    @Test func theWatchdogOutlivesItsTurnAndWatchesTheNextFromWhereItSleeps() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let done = script.feed(script.turnComplete())
        #expect(!done.contains(.disarm(.turnWatchdog)))
        #expect(script.machine.timers[.turnWatchdog] == .seconds(60))
        // The next turn, 50 s later, keeps the armed timer: no timer is armed for it.
        script.now = .seconds(50)
        _ = Self.ask(&script, requestID: "req-2")
        let accepted = script.feed(.answered(.message(requestID: "req-2", epoch: 0), .success(.accepted(turnID: "turn-2"))))
        #expect(!accepted.contains { if case .arm(.turnWatchdog, _) = $0 { true } else { false } })
        // At 60 s the turn has been quiet for 10 s: the watchdog sleeps on until a period after its start.
        let early = script.advance(.seconds(10))
        #expect(early.contains(.arm(.turnWatchdog, at: .seconds(110))))
        #expect(!Script.requests(early).contains { $0.call == .history })
        let due = script.advance(.seconds(50))
        #expect(Script.request(due) { $0 == .history } == .watchdog(turnID: "turn-2", firstCheck: true, epoch: 0))
    }

    @Test func aWatchdogThatFiresBetweenTurnsEndsQuietly() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        script.feed(script.turnComplete())
        let fired = script.advance(.seconds(60))
        #expect(Script.requests(fired).isEmpty)
        #expect(script.machine.timers[.turnWatchdog] == nil)
    }

    @Test func aSecondAskWaitsForTheFirstTurnAndTheQueueIsBounded() {
        var settings = SessionSettings(functions: Script.functions)
        settings.turnQueueLimit = 1
        var script = Script(settings: settings)
        script.open()
        _ = Self.ask(&script)
        _ = Self.ask(&script, "second", requestID: "req-2")
        #expect(Script.requests(script.log).filter { if case .message = $0.call { true } else { false } }.count == 1)
        let third = Self.ask(&script, "third", requestID: "req-3")
        guard case .turn(.failure(let full)) = Script.replies(script.log)[third] else {
            Issue.record("the third ask was not refused")
            return
        }
        #expect(full.code == .turnQueueFull)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let next = script.feed(script.turnComplete())
        #expect(Script.request(next) { $0 == .message(text: "second", requestID: "req-2") } != nil)
    }

    @Test func anAskThatRunsOutOfTimeGetsWhatTheTurnDidSoFar() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script, timeout: .seconds(5))
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let timedOut = script.advance(.seconds(5))
        guard case .turn(.failure(let error)) = Script.replies(timedOut)[waiter] else {
            Issue.record("no time-out: \(timedOut)")
            return
        }
        #expect(error.code == .turnTimedOut)
        #expect(error.turnSoFar?.turnID == "turn-1")
        #expect(error.turnSoFar?.ending == .unfinished)
    }

    /// An ask queued behind an unfinished turn that runs out of time says its message was never sent.
    @Test func anAskThatRunsOutOfTimeInTheQueueSaysItsMessageWasNotSent() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let queued = Self.ask(&script, "second", requestID: "req-2", timeout: .seconds(5))
        let timedOut = script.advance(.seconds(5))
        guard case .turn(.failure(let error)) = Script.replies(timedOut)[queued] else {
            Issue.record("no time-out: \(timedOut)")
            return
        }
        #expect(error.code == .turnTimedOut)
        #expect(error.message.hasSuffix("the message was not sent, as the session's turn before it had not ended"))
        #expect(Script.requests(timedOut).isEmpty)
    }

    /// A run that ends for a cause (a stream that spent its reconnects) ends a queued question with that cause,
    /// not as a shutdown, and says it was not sent.
    @Test func aQueuedAskEndsWithTheRunsCauseAndSaysItWasNotSent() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let queued = Self.ask(&script, "second", requestID: "req-2")
        let error = EventStreamError(code: .attemptsExhausted, message: "Gave up after 5 attempts")
        let ended = script.feed(.streamEnded(generation: script.generation, .failed(error)))
        guard case .turn(.failure(let failure)) = Script.replies(ended)[queued] else {
            Issue.record("the queued ask did not end: \(ended)")
            return
        }
        #expect(failure.code == .unreachable)
        #expect(failure.message.hasSuffix("; the question was still waiting its turn and was not sent"))
    }

    @Test func aMessageThatFailsTransientlyIsSentAgainWithTheSameRequestIDThenGivenUp() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        for attempt in 1...SessionMachine.maxSendAttempts {
            let failed = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(503, .sendMessage)))
            if attempt < SessionMachine.maxSendAttempts {
                #expect(failed.contains { if case .arm(.sendRetry, _) = $0 { true } else { false } })
                let again = script.advance(.seconds(40))
                #expect(Script.request(again) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
            } else {
                guard case .turn(.failure(let error)) = Script.replies(failed)[waiter] else {
                    Issue.record("the ask did not fail")
                    return
                }
                #expect(error.message.hasPrefix("Gave up after 8 attempts"))
            }
        }
    }

    @Test func aTurnLockHeldByALiveTurnIsWaitedOutWithTheSameRequestID() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        let conflict = script.feed(.answered(
            .message(requestID: "req-1", epoch: 0), Script.httpFailure(409, .sendMessage, detail: "A turn is already in progress")))
        #expect(conflict.contains { if case .arm(.sendRetry, _) = $0 { true } else { false } })
        // Another client's turn is alive: its events keep arriving.
        script.now += .seconds(30)
        script.feed(script.event("assistant_text_delta", turn: "other", request: "theirs", ["delta": "x", "accumulated": "x"]))
        let retry = script.advance(.seconds(1))
        #expect(Script.request(retry) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
        let accepted = script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        #expect(Script.publications(accepted).contains(.turnStarted(turnID: "turn-1")))
    }

    @Test func aTurnLockNobodyFollowsIsReplacedWithinOneWatchdogPeriodAndTheMessageGoesToTheNewSession() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        var replaced: [SessionAction] = []
        while script.now < .seconds(61), replaced.isEmpty {
            let answer = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(409, .sendMessage)))
            if answer.contains(.closeStream) {
                replaced = answer
            } else {
                script.advance(.seconds(6))
            }
        }
        #expect(script.now <= .seconds(60))
        #expect(Script.requests(replaced).map(\.call) == [.register])
        script.feed(.answered(.setup(epoch: script.epoch), .success(.registered)))
        #expect(Script.requests(script.log).last?.call == .createSession(reuse: false))
        let opened = script.feed(.answered(.setup(epoch: script.epoch), .success(.session(Script.sessionJSON("s2", from: script.date)))))
        #expect(Script.notices(opened) == ["The assistant lost track of the last question; a new conversation started."])
        #expect(Script.request(opened) { $0 == .message(text: "what time is it", requestID: "req-1") } == .message(requestID: "req-1", epoch: 1))
        script.feed(.answered(.message(requestID: "req-1", epoch: 1), .success(.accepted(turnID: "turn-9"))))
        let done = script.feed(script.turnComplete(turn: "turn-9"))
        guard case .turn(.success) = Script.replies(done)[waiter] else {
            Issue.record("the ask was not answered in the new session")
            return
        }
    }

    @Test func aSessionAnEarlierProcessLeftHoldingALostTurnsLockIsReplacedAtTheFirstConflict() {
        var script = Script()
        let record = SessionRecord(sessionID: "s1", cursor: "7-0", holdsLostTurnLock: true)
        script.open("s1", reused: true, restored: Restored(session: record))
        _ = Self.ask(&script)
        let conflict = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(409, .sendMessage)))
        #expect(conflict.contains(.closeStream))
        #expect(Script.requests(conflict).map(\.call) == [.register])
    }

    @Test func aLostTurnIsReconciledThenDeclaredLostAndTheNextProcessKnowsItsSessionHoldsTheLock() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let firstCheck = script.advance(.seconds(60))
        let tag = Script.request(firstCheck) { $0 == .history }
        #expect(tag == .watchdog(turnID: "turn-1", firstCheck: true, epoch: 0))
        let reset = script.feed(.answered(tag!, .success(.history([]))))
        #expect(Script.streams(reset).map(\.cursor) == [nil])
        let secondCheck = script.advance(.seconds(60))
        let second = Script.request(secondCheck) { $0 == .history }
        let lost = script.feed(.answered(second!, .success(.history([]))))
        guard case .turn(.failure(let error)) = Script.replies(lost)[waiter] else {
            Issue.record("the ask did not end: \(lost)")
            return
        }
        #expect(error.code == .turnLost)
        #expect(Script.persistedSessions(lost).last?.holdsLostTurnLock == true)
        #expect(Script.notices(lost) == ["The assistant did not answer."])
    }

    /// The backend went away mid-turn (after the call's result was posted, say): the history cannot be read either,
    /// and the turn is lost after the second check all the same. Before, each failed read only re-armed the
    /// watchdog, and `rk-chat -m` waited for ever.
    @Test func aTurnWhoseHistoryCannotBeReadIsLostAtTheSecondCheck() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let first = Script.request(script.advance(.seconds(60))) { $0 == .history }
        #expect(first == .watchdog(turnID: "turn-1", firstCheck: true, epoch: 0))
        let unread = script.feed(.answered(first!, Script.transportFailure(.sessionRead)))
        #expect(Script.replies(unread)[waiter] == nil, "one failed read is not yet a lost turn")
        let second = Script.request(script.advance(.seconds(60))) { $0 == .history }
        #expect(second == .watchdog(turnID: "turn-1", firstCheck: false, epoch: 0))
        let lost = script.feed(.answered(second!, Script.transportFailure(.sessionRead)))
        guard case .turn(.failure(let error)) = Script.replies(lost)[waiter] else {
            Issue.record("the ask did not end: \(lost)")
            return
        }
        #expect(error.code == .turnLost)
        #expect(Script.notices(lost) == ["The assistant did not answer."])
    }

    @Test func aTurnThatEndedUnseenIsReconciledFromTheHistory() throws {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        let check = script.advance(.seconds(60))
        let answer = try SessionMessage(json: [
            "id": "m2", "sequence_number": 2, "role": "assistant", "content": "It is 10:42.", "created_at": "",
        ])
        let reconciled = script.feed(.answered(try #require(Script.request(check) { $0 == .history }), .success(.history([answer]))))
        guard case .turn(.success(let result)) = Script.replies(reconciled)[waiter] else {
            Issue.record("the turn was not reconciled: \(reconciled)")
            return
        }
        #expect(result.text == "It is 10:42.")
        #expect(Script.streams(reconciled).map(\.cursor) == [nil])
        // The replay brings the turn's turn_complete: it is not shown twice.
        let replayed = Script.publications(script.feed(script.turnComplete("It is 10:42.")))
        #expect(!replayed.contains { if case .message = $0 { true } else { false } })
    }

    /// The session ended on the server (expired, closed, handed off to a person) before the question reached it: the
    /// question goes to a new session and the user is told once; a second 410 there fails it.
    @Test func aMessageRefusedWith410GoesToANewSessionAndTheUserIsToldOnce() {
        var script = Script()
        script.open()
        let waiter = Self.ask(&script)
        let gone = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(410, .sendMessage)))
        #expect(Script.replies(gone)[waiter] == nil)
        #expect(gone.contains(.closeStream))
        script.feed(.answered(.setup(epoch: script.epoch), .success(.registered)))
        #expect(Script.requests(script.log).last?.call == .createSession(reuse: false))
        let opened = script.feed(
            .answered(.setup(epoch: script.epoch), .success(.session(Script.sessionJSON("s2", from: script.date)))))
        #expect(Script.notices(opened) == ["The conversation ended on the server; a new one started."])
        let resent = Script.request(opened) { $0 == .message(text: "what time is it", requestID: "req-1") }
        #expect(resent == .message(requestID: "req-1", epoch: 1))
        let again = script.feed(.answered(.message(requestID: "req-1", epoch: 1), Script.httpFailure(410, .sendMessage)))
        guard case .turn(.failure(let error)) = Script.replies(again)[waiter] else {
            Issue.record("the ask did not fail at the second 410")
            return
        }
        #expect(error.code == .sessionGone)
    }

    @Test func aMessageRefusedForAnExpiredTokenIsSentAgainAfterTheRefresh() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        let refused = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.chatUnavailable(.sendMessage)))
        let tag = Script.request(refused) { $0 == .createSession(reuse: true) }
        let refreshed = script.feed(.answered(tag!, .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(Script.request(refreshed) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
    }

    @Test func sendMessageIsRefusedWhileATurnRunsAndAnsweredWhenAccepted() {
        var script = Script()
        script.open()
        let first = script.waiter()
        script.feed(.send(first, text: "one", requestID: "r1"))
        let second = script.waiter()
        #expect(Script.replies(script.feed(.send(second, text: "two", requestID: "r2")))[second] == .sent(.rejectedTurnInProgress))
        let accepted = script.feed(.answered(.message(requestID: "r1", epoch: 0), .success(.accepted(turnID: "t1"))))
        #expect(Script.replies(accepted)[first] == .sent(.accepted(turnID: "t1")))
    }

    @Test func aCancelledAskStopsWaitingAndTheQueueMovesOn() {
        var script = Script()
        script.open()
        _ = Self.ask(&script)
        let queued = Self.ask(&script, "second", requestID: "req-2")
        let cancelled = script.feed(.cancelled(queued))
        guard case .turn(.failure(let error)) = Script.replies(cancelled)[queued] else {
            Issue.record("the queued ask was not answered")
            return
        }
        #expect(error.message == "Cancelled while waiting for the previous turn")
    }

    @Test func anAskBeforeTheSessionOpensWaitsForIt() {
        var script = Script()
        script.feed(.start(Restored(), hasAPIKey: true))
        let waiter = Self.ask(&script)
        #expect(Script.requests(script.log).map(\.call) == [.register])
        script.feed(.answered(.setup(epoch: 0), .success(.registered)))
        let opened = script.feed(.answered(.setup(epoch: 0), .success(.session(Script.sessionJSON("s1", from: script.date)))))
        #expect(Script.request(opened) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
        #expect(opened.contains(.disarm(.sessionWait(waiter))))
    }
}
