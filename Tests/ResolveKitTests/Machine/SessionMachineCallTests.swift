import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

/// Tool calls from their event to the acknowledged result, under replays, failures and restarts, as event scripts.
struct SessionMachineCallTests {
    typealias Script = MachineScript

    /// The outcome of a handed call comes back from the tools core.
    static func finish(_ script: inout Script, _ callID: ToolCallID, _ outcome: ToolCallOutcome) -> [SessionAction] {
        script.feed(.call(.finished(callID, outcome, ranFor: .milliseconds(1)), epoch: script.epoch))
    }

    @Test func aCallIsHandedOnOnlyOnceTheJournalHoldsItAndAResultPostedOnlyOnceTheJournalHoldsIt() {
        var script = Script()
        script.open()
        script.writesCompleteAtOnce = false
        let received = script.feed(script.toolCall("c1"))
        #expect(Script.batches(received).isEmpty)
        let handedOn = script.complete(Script.writeSequences(received).last!)
        #expect(Script.batches(handedOn).map { $0.calls.map(\.callID) } == [["c1"]])
        let finished = Self.finish(&script, "c1", .success("ok"))
        #expect(Script.postedResults(finished).isEmpty)
        let posted = script.complete(Script.writeSequences(finished).last!)
        #expect(Script.postedResults(posted).map(\.callID) == ["c1"])
    }

    /// The row of a finished call, and the log line about it, name the span the tools core ran it under.
    @Test func aFinishedCallsRowAndLogLineCarryItsSpan() throws {
        var script = Script()
        script.open()
        _ = script.feed(script.toolCall("c1"))
        let span = try SpanContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        let finished = script.feed(
            .call(.finished("c1", .success("ok"), ranFor: .milliseconds(1), span: span), epoch: script.epoch))
        let rows = finished.compactMap { action -> ToolCallChecklistItem? in
            if case .publish(.callUpdated(let row)) = action { return row }
            return nil
        }
        #expect(rows.map(\.status) == [.completed])
        #expect(rows.first?.spanContext == span)
        let lines = finished.compactMap { action -> SpanContext?? in
            if case .publish(.log(let line, _, let context)) = action, line.hasPrefix("Call c1") { return context }
            return nil
        }
        #expect(lines == [span])
    }

    @Test func withAStoreThatAppliesWritesAtOnceTheCallIsHandedOnAndItsResultPostedBeforeHostsAreTold() {
        var settings = SessionSettings(functions: Script.functions)
        settings.writesApplyAtOnce = true
        var script = Script(settings: settings)
        script.open()
        script.writesCompleteAtOnce = false
        let received = script.feed(script.toolCall("c1"))
        #expect(Script.batches(received).map { $0.calls.map(\.callID) } == [["c1"]], "handed on with its write")
        let handed = received.firstIndex { if case .runBatch = $0 { true } else { false } }
        let shown = received.firstIndex { if case .publish(.immediateCall) = $0 { true } else { false } }
        #expect(handed != nil && shown != nil && handed! < shown!, "the function starts before hosts are shown it")
        let finished = Self.finish(&script, "c1", .success("ok"))
        let write = finished.firstIndex { if case .write = $0 { true } else { false } }
        let post = finished.firstIndex { if case .send(.toolResult, _, _) = $0 { true } else { false } }
        let told = finished.firstIndex { if case .publish(.callUpdated) = $0 { true } else { false } }
        guard let write, let post, let told else {
            Issue.record("expected a write, a post and a publication: \(finished)")
            return
        }
        #expect(write < post && post < told)
    }

    @Test func aWriteRefusedBecauseAnotherProcessOwnsTheKeyEndsTheRunAndNothingRuns() {
        var script = Script()
        script.open()
        script.writesCompleteAtOnce = false
        let received = script.feed(script.toolCall("c1"))
        let owner = ResolveKitError(.keyOwnedElsewhere, "replica-b holds this key")
        let refused = script.complete(Script.writeSequences(received).last!, .failure(owner))
        #expect(Script.batches(refused).isEmpty)
        #expect(
            Script.states(refused).contains {
                if case .failed(let error) = $0 { error.code == .keyOwnedElsewhere } else { false }
            })
        #expect(refused.last == .finish)
    }

    @Test func anApprovalFreeCallIsJournaledAsHandedOnBeforeItIsHandedToTheToolsCore() {
        var script = Script()
        script.open()
        let actions = script.feed(script.toolCall("c1"))
        let written = Script.journalWrites(actions)
        #expect(written.last?.status == .running)
        let journaled = actions.lastIndex { if case .write(.appendJournal, _) = $0 { true } else { false } }
        let handed = actions.firstIndex { if case .runBatch = $0 { true } else { false } }
        #expect(journaled != nil && handed != nil && journaled! < handed!)
        #expect(Script.batches(actions).map { $0.calls.map(\.callID) } == [["c1"]])
    }

    @Test func callsNeedingApprovalWaitForTheWindowAndAreHandedOnAsOneBatch() {
        var script = Script()
        script.open()
        #expect(Script.batches(script.feed(script.toolCall("a", "set_lights"))).isEmpty)
        #expect(Script.batches(script.feed(script.toolCall("b", "set_lights"))).isEmpty)
        let window = script.advance(.milliseconds(250))
        #expect(Script.batches(window).map { $0.calls.map(\.callID) } == [["a", "b"]])
        #expect(
            Script.publications(window).contains { if case .batch(let rows) = $0 { rows.count == 2 } else { false } })
    }

    @Test func theEventsFlagIsNotTrustedTheLocalRegistrationDecides() {
        var script = Script()
        script.open()
        // The event says the call needs approval; get_time's registration says it does not.
        let actions = script.feed(script.toolCall("c1", "get_time"))
        #expect(Script.batches(actions).first?.calls.first?.requiresApproval == false)
        // A function this process does not know is handed on at once, for the tools core to refuse.
        let unknown = script.feed(script.toolCall("c2", "rm_rf"))
        #expect(Script.batches(unknown).first?.calls.first?.requiresApproval == false)
    }

    @Test func anOutcomeIsJournaledPostedAndSettledWhenTheServerHasIt() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        let finished = Self.finish(&script, "c1", .success("10:42"))
        #expect(Script.journalWrites(finished).last?.status == .answered(.success("10:42")))
        let posted = Script.postedResults(finished)
        #expect(posted.map(\.callID) == ["c1"])
        #expect(posted.first?.idempotencyKey == "c1")
        let delivered = script.feed(.answered(.delivery("c1", epoch: 0), .success(.delivered(deduplicated: false))))
        #expect(Script.journalWrites(delivered).last?.status == .settled)
        #expect(Script.publications(delivered).contains(.delivered("c1")))
    }

    @Test func aFunctionsErrorCodeIsKeptInTheJournalTheChecklistAndThePostedResult() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        let error = ResolveKitFunctionError(code: .init("disk_full"), message: "No space left")
        let finished = Self.finish(&script, "c1", .failure(error))
        #expect(Script.journalWrites(finished).last?.status == .answered(.failure(error)))
        let row = Script.publications(finished).compactMap { if case .callUpdated(let row) = $0 { row } else { nil } }
            .last
        #expect(row?.errorCode == .init("disk_full"))
        #expect(Script.postedResults(finished).first?.json["status"] == "disk_full")
    }

    @Test(arguments: [503, 409, 0])
    func aResultPostThatFailsTransientlyIsRetriedAfterABackoff(status: Int) {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        _ = Self.finish(&script, "c1", .success("ok"))
        let failure = status == 0 ? Script.transportFailure(.toolResults) : Script.httpFailure(status, .toolResults)
        let failed = script.feed(.answered(.delivery("c1", epoch: 0), failure))
        #expect(failed.contains { if case .arm(.deliveryRetry, _) = $0 { true } else { false } })
        #expect(Script.postedResults(script.advance(.seconds(2))).map(\.callID) == ["c1"])
    }

    @Test(arguments: [404, 410, 422])
    func aResultTheServerNoLongerAwaitsIsSettledNotRetried(status: Int) {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        _ = Self.finish(&script, "c1", .success("ok"))
        let answered = script.feed(.answered(.delivery("c1", epoch: 0), Script.httpFailure(status, .toolResults)))
        #expect(Script.journalWrites(answered).last?.status == .settled)
        #expect(!answered.contains { if case .arm(.deliveryRetry, _) = $0 { true } else { false } })
    }

    @Test func aResultRefusedForAnExpiredTokenIsPostedAgainAfterTheRefresh() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        _ = Self.finish(&script, "c1", .success("ok"))
        let refused = script.feed(.answered(.delivery("c1", epoch: 0), Script.chatUnavailable(.toolResults)))
        let tag = Script.request(refused) { $0 == .createSession(reuse: true) }
        #expect(tag == .refresh(.delivery, epoch: 0))
        let refreshed = script.feed(
            .answered(tag!, .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(Script.postedResults(refreshed).map(\.callID) == ["c1"])
    }

    @Test func aReplayedCallRunsOnceAndAReplayOfAnAnsweredOneResendsItsResult() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        #expect(Script.batches(script.feed(script.toolCall("c1"))).isEmpty)
        _ = Self.finish(&script, "c1", .success("ok"))
        script.feed(.answered(.delivery("c1", epoch: 0), Script.transportFailure(.toolResults)))
        // Renumbered by a restarted backend and replayed: still the same call.
        let replay = script.feed(script.toolCall("c1"))
        #expect(Script.batches(replay).isEmpty)
    }

    @Test func aCallOfATurnThatAlreadyEndedIsNotRun() {
        var script = Script()
        script.open()
        script.feed(.ask(script.waiter(), text: "hi", requestID: "req-1", timeout: nil))
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        script.feed(script.turnComplete(turn: "turn-1"))
        let late = script.feed(script.toolCall("c1", turn: "turn-1"))
        #expect(Script.batches(late).isEmpty)
    }

    /// A call that waits for a person is journaled as handed on, not as possibly run: decided, it asks to start,
    /// and may only once the journal says so. A crash before that is answered "before it ran" at the restart.
    @Test func aDecidedCallStartsOnlyOnceTheJournalSaysItMayHaveRun() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("asking", "set_lights"))
        script.advance(.milliseconds(300))
        #expect(Script.batches(script.log).flatMap(\.calls).map(\.callID) == ["asking"])
        #expect(!Script.journaled(script.log, "asking").contains(.running))
        script.writesCompleteAtOnce = false
        let asked = script.feed(.startRequested("asking", epoch: script.epoch))
        #expect(Script.journaled(asked, "asking") == [.running])
        #expect(!asked.contains(.permitStart("asking", true)))
        let written = script.complete(Script.writeSequences(asked).last ?? 0)
        #expect(written.contains(.permitStart("asking", true)))

        var journal = CallJournal()
        _ = journal.admit(sessionID: "s1", callID: "asking", turnID: "turn-1", functionName: "set_lights")
        let interrupted = journal.resolveInterruptedCalls()
        #expect(interrupted.first?.status == .answered(.failure(.cancelled("Interrupted by a client restart before it ran"))))
    }

    @Test func aCallWhoseTurnEndedWhileItWaitedToStartMayNotStart() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("asking", "set_lights"))
        script.advance(.milliseconds(300))
        script.writesCompleteAtOnce = false
        script.feed(.startRequested("asking", epoch: script.epoch))
        let failed = script.feed(script.event("error", ["code": "llm_error", "message": "The model failed"]))
        #expect(failed.contains(.permitStart("asking", false)))
        #expect(script.feed(.startRequested("asking", epoch: script.epoch)).contains(.permitStart("asking", false)))
        #expect(script.feed(.startRequested("other", epoch: script.epoch + 1)).contains(.permitStart("other", false)))
    }

    @Test func aTurnThatFailsStopsItsRunningCallsAndSettlesTheirOutcomesWithoutPostingThem() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("running"))
        script.feed(script.toolCall("waiting", "set_lights"))
        let failed = script.feed(script.event("error", ["code": "llm_error", "message": "The model failed"]))
        #expect(
            failed.contains(
                .stopCalls(
                    ["running"], sessionID: "s1", error: .cancelled("Not run: its turn ended (agent_error)"),
                    cancellingRunning: true)))
        #expect(Script.journaled(failed, "waiting").contains(.settled))
        let finished = Self.finish(&script, "running", .failure(.cancelled("Cancelled before it finished")))
        #expect(Script.postedResults(finished).isEmpty)
        #expect(Script.journalWrites(finished).last?.status == .settled)
    }

    @Test func aRestartAnswersCallsTheLastProcessLeftUnfinishedAndNeverRunsThemAgain() {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s1", callID: "handed", turnID: "t", functionName: "get_time")
        journal.markRunning(CallJournal.Key(sessionID: "s1", callID: "handed"))
        _ = journal.admit(sessionID: "s1", callID: "queued", turnID: "t", functionName: "set_lights")
        _ = journal.takeChangedEntries()
        var script = Script()
        script.open(
            "s1", reused: true,
            restored: Restored(session: SessionRecord(sessionID: "s1", cursor: "3-0"), journal: journal))
        let posted = Script.postedResults(script.log)
        #expect(posted.map(\.callID) == ["handed"])
        guard case .failure(let error) = posted.first?.outcome else {
            Issue.record("no error result")
            return
        }
        #expect(error.message.contains("may or may not have completed"))
        // The process that died wrote no outcome line for them: this one does, and logs each once.
        let audited = script.log.compactMap { action -> ToolCallID? in
            if case .auditOutcome(let call, "s1", .failure) = action { return call.callID }
            return nil
        }
        #expect(audited == ["handed", "queued"])
        let warnings = script.log.filter { if case .publish(.log(_, .warning, _)) = $0 { true } else { false } }
        #expect(warnings.count == 2)
        script.feed(.answered(.delivery("handed", epoch: 0), .success(.delivered(deduplicated: false))))
        #expect(Script.postedResults(script.log).last?.callID == "queued")
        #expect(Script.batches(script.feed(script.toolCall("handed"))).isEmpty)
    }

    /// A host's run for a key folder whose last process stopped with results undelivered: it posts them, and
    /// nothing else happens (no stream, no history, no call run), then it ends.
    @Test func aRunThatOnlyDeliversPostsWhatTheJournalHoldsOpensNoStreamAndEnds() {
        var script = Self.deliveringScript()
        let opened = script.feed(
            .answered(.setup(epoch: 0), .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        #expect(Script.streams(script.log).isEmpty)
        #expect(!Script.requests(script.log).contains { $0.call == .history })
        #expect(Script.postedResults(opened).map(\.callID) == ["done"])
        let next = script.feed(.answered(.delivery("done", epoch: 0), .success(.delivered(deduplicated: false))))
        guard case .failure(let error) = Script.postedResults(next).first?.outcome else {
            Issue.record("the interrupted call was not answered")
            return
        }
        #expect(error.message.contains("may or may not have completed"))
        #expect(!next.contains(.finish))
        let last = script.feed(.answered(.delivery("handed", epoch: 0), .success(.delivered(deduplicated: false))))
        #expect(last.contains(.finish))
        #expect(script.machine.hasEnded)
        #expect(Script.batches(script.log).isEmpty)
    }

    @Test func aRunThatOnlyDeliversGivesUpAtItsConnectBudgetAndKeepsWhatItCouldNotPost() {
        var script = Self.deliveringScript()
        script.feed(
            .answered(.setup(epoch: 0), .success(.session(Script.sessionJSON("s1", reused: true, from: script.date)))))
        script.feed(.answered(.delivery("done", epoch: 0), Script.transportFailure(.toolResults)))
        script.advance(.seconds(31))
        guard case .failed(let error) = Script.states(script.log).last else {
            Issue.record("the run did not fail: \(Script.states(script.log))")
            return
        }
        #expect(error.message.contains("2 result(s) the last process left were not delivered within 30"))
        #expect(!Script.journaled(script.log, "done").contains(.settled))
        #expect(script.machine.hasEnded)
    }

    /// A delivering run restored with one result undelivered (`done`) and one call that was running (`handed`),
    /// registered and waiting for its session.
    static func deliveringScript() -> Script {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "s1", callID: "done", turnID: "t", functionName: "get_time")
        journal.recordResult(CallJournal.Key(sessionID: "s1", callID: "done"), .success("12:00"))
        _ = journal.admit(sessionID: "s1", callID: "handed", turnID: "t", functionName: "get_time")
        journal.markRunning(CallJournal.Key(sessionID: "s1", callID: "handed"))
        _ = journal.takeChangedEntries()
        var settings = SessionSettings(functions: Script.functions)
        settings.deliversOnly = true
        var script = Script(settings: settings)
        let record = SessionRecord(sessionID: "s1", cursor: "3-0")
        script.feed(.start(Restored(session: record, journal: journal), hasAPIKey: true))
        script.feed(.answered(.setup(epoch: 0), .success(.registered)))
        return script
    }

    @Test func resultsOfAnEarlierSessionAreDroppedNotPostedWithTheNewToken() {
        var journal = CallJournal()
        _ = journal.admit(sessionID: "old", callID: "c1", turnID: "t", functionName: "get_time")
        journal.recordResult(CallJournal.Key(sessionID: "old", callID: "c1"), .success("ok"))
        var script = Script()
        script.open("new", restored: Restored(journal: journal))
        #expect(Script.postedResults(script.log).isEmpty)
        #expect(Script.journalWrites(script.log).contains { $0.key.sessionID == "old" && $0.status == .settled })
    }

    @Test func drainingRefusesNewAndWaitingCallsLetsRunningOnesFinishAndAnswersWhenIdle() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("running"))
        script.feed(script.toolCall("windowed", "set_lights"))
        let waiter = script.waiter()
        let drain = script.feed(.drain(waiter))
        let shuttingDown = ToolCallOutcome.failure(.cancelled("The service is shutting down; try again later"))
        #expect(Script.journaled(drain, "windowed").contains(.answered(shuttingDown)))
        #expect(Script.replies(drain)[waiter] == nil)
        let refused = script.feed(script.toolCall("new"))
        #expect(Script.batches(refused).isEmpty)
        _ = Self.finish(&script, "running", .success("ok"))
        for callID: ToolCallID in ["windowed", "running", "new"] {
            script.feed(.answered(.delivery(callID, epoch: 0), .success(.delivered(deduplicated: false))))
        }
        #expect(Script.replies(script.log)[waiter] == .done(.success(())))
    }

    @Test func drainingWithdrawsCallsWaitingForADecisionAndLeavesStartedOnesRunning() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("started"))
        script.feed(.call(.started("started"), epoch: script.epoch))
        script.feed(script.toolCall("asking", "set_lights"))
        script.advance(.milliseconds(300))
        #expect(Script.batches(script.log).flatMap(\.calls).map(\.callID).contains("asking"))
        let drain = script.feed(.drain(script.waiter()))
        let shuttingDown = ResolveKitFunctionError.cancelled("The service is shutting down; try again later")
        #expect(drain.contains(.stopCalls(["asking"], sessionID: "s1", error: shuttingDown, cancellingRunning: false)))
    }

    @Test func theEndOfASessionAnswersItsOpenCallsAndStopsTheHandedOnes() {
        var script = Script()
        script.open()
        script.feed(script.toolCall("c1"))
        script.feed(.call(.started("c1"), epoch: script.epoch))
        let gone = script.feed(.streamEnded(generation: script.generation, Script.streamFailure(410)))
        #expect(
            gone.contains(
                .stopCalls(
                    ["c1"], sessionID: "s1", error: .cancelled("The session ended while the call ran"),
                    cancellingRunning: true)))
        let ended = ToolCallOutcome.failure(.cancelled("The session ended while the call ran"))
        #expect(Script.journaled(gone, "c1").contains(.answered(ended)))
        // The tools core's late report belongs to the ended session.
        #expect(Self.finish(&script, "c1", .success("late")).isEmpty)
    }

    @Test func theJournalIsCompactedOnceItsRecordsOutnumberItsEntriesFourToOne() {
        var script = Script()
        // A long-running service: the journal is full, so each call adds records but no entry.
        script.open(restored: Restored(journal: CallJournal(capacity: 64)))
        var compactingOutputs: [[SessionAction]] = []
        func keepIfCompacting(_ actions: [SessionAction]) {
            if actions.contains(where: { if case .write(.replaceJournal, _) = $0 { true } else { false } }) {
                compactingOutputs.append(actions)
            }
        }
        for index in 0..<400 {
            let callID = ToolCallID("c\(index)")
            script.feed(script.toolCall(callID.rawValue, turn: "turn-\(index)"))
            keepIfCompacting(script.eventActions)
            _ = Self.finish(&script, callID, .success("ok"))
            keepIfCompacting(script.eventActions)
            script.feed(.answered(.delivery(callID, epoch: 0), .success(.delivered(deduplicated: false))))
            keepIfCompacting(script.eventActions)
        }
        var replaced: [CallJournal.Entry]?
        for case .write(.replaceJournal(let entries), _) in script.log { replaced = entries }
        #expect(replaced != nil)
        #expect((replaced?.count ?? 0) <= 64)
        // The replacement comes after everything else its event brought (a result's post first, when the store
        // applies writes at once), and the event also appended its own changes, which are what a result waits for.
        #expect(!compactingOutputs.isEmpty)
        for actions in compactingOutputs {
            guard case .write(.replaceJournal, _) = actions.last else {
                Issue.record("the replacement is not the event's last action: \(actions)")
                continue
            }
            #expect(actions.contains { if case .write(.appendJournal, _) = $0 { true } else { false } })
        }
    }

    @Test func aStoreThatDeletesForgottenCallsIsNeverReplacedAndHoldsNoMoreThanTheJournal() {
        var settings = SessionSettings(functions: Script.functions)
        settings.journalKeepsEveryRecord = false
        var script = Script(settings: settings)
        script.open(restored: Restored(journal: CallJournal(capacity: 64)))
        let store = MemoryCallJournalStore()
        var forgotten = 0
        for index in 0..<400 {
            let callID = ToolCallID("c\(index)")
            script.feed(script.toolCall(callID.rawValue, turn: "turn-\(index)"))
            _ = Self.finish(&script, callID, .success("ok"))
            script.feed(.answered(.delivery(callID, epoch: 0), .success(.delivered(deduplicated: false))))
        }
        for case .write(let write, _) in script.log {
            switch write {
            case .appendJournal(let entries, let keys):
                store.append(entries, forgetting: keys)
                forgotten += keys.count
            case .replaceJournal:
                Issue.record("a store that deletes forgotten calls was asked to replace the journal")
            case .session:
                break
            }
        }
        #expect(forgotten == 400 - 64)
        let (stored, records) = store.load()
        #expect(records == 64)
        #expect(
            stored.entries.keys.sorted { $0.callID.rawValue < $1.callID.rawValue }
                == script.machine.calls.journal.entries.keys.sorted { $0.callID.rawValue < $1.callID.rawValue })
    }
}
