import Testing

@testable import ResolveKit

struct TurnTrackerTests {
    @Test func aSecondMessageIsRefusedWhileOneIsBeingSent() {
        var tracker = TurnTracker(period: .seconds(60))
        let value1 = tracker.beginSending(requestID: "r1")
        #expect(value1)
        let value2 = tracker.beginSending(requestID: "r2")
        #expect(!value2)
        tracker.sendFailed(requestID: "r1")
        let value3 = tracker.beginSending(requestID: "r2")
        #expect(value3)
    }

    @Test func theTurnStartsOnceWhetherTheAnswerOrTheFirstEventComesFirst() {
        var byAnswer = TurnTracker(period: .seconds(60))
        _ = byAnswer.beginSending(requestID: "r1")
        let value4 = byAnswer.accepted(turnID: "t1", requestID: "r1", now: .zero)
        #expect(value4)
        let value5 = byAnswer.observed(turnID: "t1", requestID: "r1", now: .seconds(1))
        #expect(!value5)

        var byEvent = TurnTracker(period: .seconds(60))
        _ = byEvent.beginSending(requestID: "r1")
        let value6 = byEvent.observed(turnID: "t1", requestID: "r1", now: .zero)
        #expect(value6)
        let value7 = byEvent.accepted(turnID: "t1", requestID: "r1", now: .seconds(1))
        #expect(!value7)
        #expect(byEvent.turnID == "t1")
    }

    @Test func aSilentTurnIsReconciledThenCheckedAgainAPeriodLater() {
        var tracker = TurnTracker(period: .seconds(60))
        _ = tracker.beginSending(requestID: "r1")
        _ = tracker.accepted(turnID: "t1", requestID: "r1", now: .zero)
        let value8 = tracker.watchdog(now: .seconds(10), hasOutstandingCalls: false)
        #expect(value8 == .sleep(until: .seconds(60)))
        let value9 = tracker.watchdog(now: .seconds(60), hasOutstandingCalls: false)
        #expect(value9 == .reconcile(firstCheck: true))
        // The replay after the first check is no progress.
        tracker.noteActivity(now: .seconds(61))
        let value10 = tracker.watchdog(now: .seconds(121), hasOutstandingCalls: false)
        #expect(value10 == .reconcile(firstCheck: false))
    }

    @Test func outstandingCallsHoldTheWatchdogBackAndStartItsCountAgain() {
        var tracker = TurnTracker(period: .seconds(60))
        _ = tracker.beginSending(requestID: "r1")
        _ = tracker.accepted(turnID: "t1", requestID: "r1", now: .zero)
        let value11 = tracker.watchdog(now: .seconds(60), hasOutstandingCalls: false)
        #expect(value11 == .reconcile(firstCheck: true))
        let value12 = tracker.watchdog(now: .seconds(130), hasOutstandingCalls: true)
        #expect(value12 == .sleep(until: .seconds(190)))
        let value13 = tracker.watchdog(now: .seconds(190), hasOutstandingCalls: false)
        #expect(value13 == .reconcile(firstCheck: true))
    }

    @Test func aLostTurnMarksTheSessionAsPossiblyLockedUntilANewSession() {
        var tracker = TurnTracker(period: .seconds(60))
        _ = tracker.beginSending(requestID: "r1")
        _ = tracker.accepted(turnID: "t1", requestID: "r1", now: .zero)
        let ended = tracker.declareLost()
        #expect(ended.turnID == "t1" && ended.requestID == "r1")
        #expect(!tracker.isBusy)
        #expect(tracker.sessionMayHoldLostTurnLock)
        tracker.reset()
        #expect(!tracker.sessionMayHoldLostTurnLock)
    }
}

struct CallSlotsTests {
    @Test func slotsAreGrantedUpToTheLimitThenInArrivalOrder() {
        var slots = CallSlots(limit: 2)
        let value14 = slots.request("a")
        #expect(value14)
        let value15 = slots.request("b")
        #expect(value15)
        let value16 = slots.request("c")
        #expect(!value16)
        let value17 = slots.request("d")
        #expect(!value17)
        let value18 = slots.release()
        #expect(value18 == "c")
        let value19 = slots.withdraw("d")
        #expect(value19)
        let value20 = slots.release()
        #expect(value20 == nil)
        #expect(slots.running == 1)
    }

    @Test func aResetReturnsTheWaitingCallsAndFreesEverySlot() {
        var slots = CallSlots(limit: 1)
        _ = slots.request("a")
        _ = slots.request("b")
        let value21 = slots.reset()
        #expect(value21 == ["b"])
        let value22 = slots.request("c")
        #expect(value22)
    }
}

struct CursorKeeperTests {
    @Test func theCursorIsWrittenAtMostAboutOnceASecond() {
        var cursor = CursorKeeper()
        let value23 = cursor.advance(to: "1", now: .zero)
        #expect(value23)
        cursor.written(now: .zero)
        let value24 = cursor.advance(to: "2", now: .milliseconds(300))
        #expect(!value24)
        #expect(cursor.isDirty)
        let value25 = cursor.advance(to: "3", now: .milliseconds(1000))
        #expect(value25)
        #expect(cursor.value == "3")
    }
}
