import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// The conversation as a chat user sees it: history by pages, each message's delivery, resending what failed,
/// feedback, and the wire tap.
@Suite(.timeLimit(.minutes(1)))
struct RuntimeConversationTests {
    private static let messages = FaultPlan.Endpoint("POST", "/v1/sessions/*/messages")

    @Test func historyPagesBackwardsFromTheNewestWithACursorThatRoundTripsAsText() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("what time is it")
                try await runtime.converse("the time again")

                let newest = try await runtime.history(limit: 2)
                #expect(newest.messages.map(\.role) == [.user, .assistant])
                #expect(newest.messages.first?.text == "the time again")
                #expect(newest.messages.allSatisfy { $0.time != nil })
                let cursor = try #require(newest.older)
                #expect(ResolveKitHistoryPage.Cursor(cursor.description) == cursor)

                let oldest = try await runtime.history(limit: 2, before: cursor)
                #expect(oldest.messages.map(\.text).first == "what time is it")
                let beforeOldest = try #require(oldest.older)
                let greeting = try await runtime.history(limit: 2, before: beforeOldest)
                #expect(greeting.messages.map(\.role) == [.assistant], "the session opens with the greeting")
                #expect(greeting.older == nil)

                let everything = try await runtime.history(limit: 50)
                #expect(everything.messages.count == 5)
                #expect(everything.older == nil)
            }
        }
    }

    @Test func aCursorOfAnotherSessionIsRefusedByName() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let foreign = try #require(ResolveKitHistoryPage.Cursor("some-other-session:3"))
                let error = await #expect(throws: ResolveKitError.self) {
                    try await runtime.history(before: foreign)
                }
                #expect(error?.code == .invalidMessage)
                #expect(error?.message.contains("another session") == true)
                #expect(ResolveKitHistoryPage.Cursor("no cursor") == nil)
            }
        }
    }

    @Test func aSentMessageIsPendingThenSent() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let events = runtime.events
                let deliveries = Task {
                    var seen: [ResolveKitChatMessage.Delivery] = []
                    for await event in events {
                        guard case .messageDeliveryChanged(_, let delivery) = event else { continue }
                        seen.append(delivery)
                        if delivery == .sent { break }
                    }
                    return seen
                }
                try await runtime.converse("what time is it")
                let mine = try #require(runtime.messages.first { $0.role == .user })
                #expect(mine.delivery == .sent)
                #expect(await deliveries.value == [.pending, .sent])
            }
        }
    }

    @Test func aRefusedMessageIsMarkedFailedAndResendStartsItsTurnOnce() async throws {
        try await RuntimeHarness.run { harness in
            harness.backend.configuration.faults.fail(Self.messages, status: 422)
            try await harness.withRuntime(harness.configuration()) { runtime in
                let outcome = await runtime.sendMessage("what time is it")
                guard case .failed(let error) = outcome else {
                    Issue.record("expected the refused message to fail, got \(outcome)")
                    return
                }
                #expect(error.code == .backend)
                let failed = try #require(runtime.messages.last { $0.role == .user })
                guard case .failed = failed.delivery else {
                    Issue.record("expected failed delivery, got \(String(describing: failed.delivery))")
                    return
                }
                #expect(!runtime.isTurnInProgress)

                let again = await runtime.resend(messageID: failed.id)
                guard case .accepted = again else {
                    Issue.record("resend not accepted: \(again)")
                    return
                }
                await runtime.wait { !$0.isTurnInProgress }
                let users = runtime.messages.filter { $0.role == .user }
                #expect(users.count == 1, "resend reuses the message, it does not add another")
                #expect(users.first?.delivery == .sent)
                #expect(runtime.messages.last?.role == .assistant)
                #expect(harness.backend.counters.turnsStarted == 1)

                let twice = await runtime.resend(messageID: failed.id)
                guard case .failed(let notUnsent) = twice else {
                    Issue.record("a delivered message was resent: \(twice)")
                    return
                }
                #expect(notUnsent.code == .invalidMessage)
            }
        }
    }

    @Test func aLostAnswerIsRetriedWithItsRequestIDAndStartsOneTurn() async throws {
        try await RuntimeHarness.run { harness in
            harness.backend.configuration.faults.loseAnswer(Self.messages)
            try await harness.withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("what time is it")
                #expect(runtime.messages.first { $0.role == .user }?.delivery == .sent)
                #expect(runtime.messages.last?.role == .assistant)
                #expect(harness.backend.counters.turnsStarted == 1)
            }
        }
    }

    @Test func aMessageWhoseAnswerWasLostAndWhoseRetryWasRefusedIsResentIntoItsOneTurn() async throws {
        // The model waits for the test: the turn's events would tell the runtime its message was taken.
        let model = GatedModel()
        var configuration = ReferenceBackend.Configuration(script: TestTools.script)
        configuration.model = model
        try await RuntimeHarness.run(configuration) { harness in
            let faults = harness.backend.configuration.faults
            faults.loseAnswer(Self.messages)
            faults.fail(Self.messages, status: 422)
            try await harness.withRuntime(harness.configuration()) { runtime in
                guard case .failed = await runtime.sendMessage("what time is it") else {
                    Issue.record("the refused retry did not fail the message")
                    return
                }
                #expect(harness.backend.counters.turnsStarted == 1, "the lost answer's request was taken")
                let unsent = try #require(runtime.messages.last { $0.role == .user })
                guard case .accepted = await runtime.resend(messageID: unsent.id) else {
                    Issue.record("resend was not accepted")
                    return
                }
                model.open()
                await runtime.wait { !$0.isTurnInProgress }
                #expect(harness.backend.counters.turnsStarted == 1, "the resend joined the turn it had started")
                #expect(runtime.messages.filter { $0.role == .user }.count == 1)
                #expect(runtime.messages.last?.text == "It is 10:42.")
            }
        }
    }

    @Test func feedbackIsRecordedOncePerSessionAndOutOfRangeInputIsRefused() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                try await runtime.converse("what time is it")
                await #expect(throws: ResolveKitError.self) { try await runtime.submitFeedback(rating: 0) }
                let long = String(repeating: "x", count: 2001)
                await #expect(throws: ResolveKitError.self) { try await runtime.submitFeedback(rating: 4, comment: long) }

                #expect(try await runtime.submitFeedback(rating: 5, comment: "quick and right") == .recorded)
                #expect(try await runtime.submitFeedback(rating: 1) == .alreadyGiven)
            }
        }
    }

    @Test func theWireTapShowsFramesAndExchangesWithoutSecrets() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { runtime in
                let tap = runtime.wireTap
                try await runtime.converse("what time is it")
                await runtime.stop()

                var records: [ResolveKitWireRecord] = []
                for await record in tap { records.append(record) }
                let eventTypes = records.compactMap { record -> String? in
                    if case .event(_, let type, _) = record { return type }
                    return nil
                }
                #expect(eventTypes.contains("tool_call_request"))
                #expect(eventTypes.contains("turn_complete"))
                let exchanges = records.compactMap { record -> HTTPExchangeRecord? in
                    if case .exchange(let exchange) = record { return exchange }
                    return nil
                }
                #expect(exchanges.contains { $0.method == .post && $0.url.hasSuffix("/messages") && $0.status == 202 })
                #expect(exchanges.contains { $0.url.hasSuffix("/tool-results") })
                let text = records.map { "\($0)" }.joined(separator: "\n")
                #expect(!text.contains("rk_dev"), "the API key never reaches the tap")
                #expect(!text.contains("Bearer"))
            }
        }
    }
}

/// A model that answers "It is 10:42." once the test opens it (or its turn is cancelled, so a failed test's backend
/// still stops).
private final class GatedModel: AgentModel {
    private let gate = Mutex<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiting = gate.withLock { gate in
            gate.isOpen = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func nextRound(_ context: AgentContext) async -> AgentScript.Round {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let isOpen = gate.withLock { gate in
                    if !gate.isOpen { gate.waiting.append(continuation) }
                    return gate.isOpen
                }
                if isOpen { continuation.resume() }
            }
        } onCancel: {
            open()
        }
        return .text("It is 10:42.")
    }
}
