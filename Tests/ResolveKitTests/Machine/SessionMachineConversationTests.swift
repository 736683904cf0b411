import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

/// Each message's delivery, resending what failed, and feedback, as event scripts.
struct SessionMachineConversationTests {
    typealias Script = MachineScript

    static func send(_ script: inout Script, requestID: String = "req-1") -> WaiterID {
        let waiter = script.waiter()
        script.feed(.send(waiter, text: "what time is it", requestID: requestID))
        return waiter
    }

    static func deliveries(_ actions: [SessionAction]) -> [ResolveKitChatMessage.Delivery] {
        Script.publications(actions).compactMap { publication in
            switch publication {
            case .delivery(_, let delivery): delivery
            case .message(let message): message.delivery
            default: nil
            }
        }
    }

    @Test func aMessageIsPendingUntilAcceptedThenSent() {
        var script = Script()
        script.open()
        let waiter = Self.send(&script)
        #expect(Self.deliveries(script.log) == [.pending])
        let accepted = script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        #expect(Self.deliveries(accepted) == [.sent])
        #expect(Script.replies(accepted)[waiter] == .sent(.accepted(turnID: "turn-1")))
    }

    @Test func aTurnsFirstEventBeforeItsAnswerMarksTheMessageSent() {
        var script = Script()
        script.open()
        let waiter = Self.send(&script)
        let first = script.feed(script.event("assistant_text_delta", ["delta": "It is"]))
        #expect(Self.deliveries(first) == [.sent])
        #expect(Script.replies(first)[waiter] == .sent(.accepted(turnID: "turn-1")))
        #expect(!first.contains { if case .arm(.sendRetry, _) = $0 { true } else { false } })
        let lateAnswer = script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        #expect(Self.deliveries(lateAnswer).isEmpty)
        #expect(Script.replies(lateAnswer).isEmpty)
    }

    @Test func aRefusedMessageFailsAndIsResentWithItsRequestID() {
        var script = Script()
        script.open()
        let waiter = Self.send(&script)
        let refused = script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(422, .sendMessage)))
        guard case .failed(let error)? = Self.deliveries(refused).last else {
            Issue.record("not failed: \(refused)")
            return
        }
        #expect(error.code == .backend)
        #expect(Script.replies(refused)[waiter] == .sent(.failed(error)))
        #expect(Script.publications(refused).contains(.turnInProgress(false)))

        let again = script.waiter()
        let resent = script.feed(.resend(again, requestID: "req-1"))
        #expect(Script.request(resent) { $0 == .message(text: "what time is it", requestID: "req-1") } != nil)
        #expect(Script.publications(resent).contains(.delivery(messageID: "user-req-1", .pending)))
        #expect(!Script.publications(resent).contains { if case .message = $0 { true } else { false } })
        let accepted = script.feed(.answered(.message(requestID: "req-1", epoch: 0), .success(.accepted(turnID: "turn-1"))))
        #expect(Script.replies(accepted)[again] == .sent(.accepted(turnID: "turn-1")))
    }

    @Test func onlyAMessageThatFailedCanBeResentAndNotDuringATurn() {
        var script = Script()
        script.open()
        let unknown = script.waiter()
        guard case .sent(.failed(let error))? = Script.replies(script.feed(.resend(unknown, requestID: "nope")))[unknown]
        else {
            Issue.record("an unknown message was resent")
            return
        }
        #expect(error.code == .invalidMessage)

        _ = Self.send(&script)
        script.feed(.answered(.message(requestID: "req-1", epoch: 0), Script.httpFailure(422, .sendMessage)))
        _ = Self.send(&script, requestID: "req-2")
        let busy = script.waiter()
        #expect(Script.replies(script.feed(.resend(busy, requestID: "req-1")))[busy] == .sent(.rejectedTurnInProgress))
    }

    @Test func feedbackOutOfRangeIsRefusedWithoutARequestAndASecondIsAlreadyGiven() {
        var script = Script()
        script.open()
        let tooHigh = script.waiter()
        let refused = script.feed(.operation(tooHigh, .feedback(rating: 6, comment: nil)))
        #expect(Script.requests(refused).isEmpty)
        guard case .feedback(.failure(let error))? = Script.replies(refused)[tooHigh] else {
            Issue.record("a rating of 6 was not refused")
            return
        }
        #expect(error.code == .invalidMessage)

        let rating = script.waiter()
        let sent = script.feed(.operation(rating, .feedback(rating: 4, comment: "good")))
        #expect(Script.request(sent) { $0 == .feedback(rating: 4, comment: "good") } != nil)
        let answered = script.feed(.answered(.operation(rating, epoch: 0), .success(.feedback(alreadyGiven: true))))
        #expect(Script.replies(answered)[rating] == .feedback(.success(.alreadyGiven)))
    }
}
