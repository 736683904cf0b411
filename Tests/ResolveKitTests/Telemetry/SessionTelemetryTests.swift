import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

@testable import ResolveKit

/// How a session's questions end as the turn metrics and spans say, on a manual clock: the driver's calls made by
/// hand, in the orders the machine makes them happen.
@Suite
struct SessionTelemetryTests {
    final class Spans: SpanProcessor {
        private let list = Mutex<[FinishedSpan]>([])
        func onEnd(_ span: FinishedSpan) { list.withLock { $0.append(span) } }
        var all: [FinishedSpan] { list.withLock { $0 } }
    }

    struct Recorded {
        let clock = ManualClock()
        let registry = MetricsRegistry()
        let spans = Spans()
        let telemetry: SessionTelemetry

        init() throws {
            telemetry = SessionTelemetry(
                metrics: try ResolveKitMetrics(registry: registry, functionNames: ["get_time"]),
                tracer: Tracer(processor: spans), clock: ResolveKitClock(clock))
        }

        func sample(_ key: String) -> Double? {
            for line in String(decoding: registry.exposition(), as: UTF8.self).split(separator: "\n")
            where line.hasPrefix(key + " ") {
                return Double(line.dropFirst(key.count + 1))
            }
            return nil
        }

        func post(_ requestID: String) {
            let access = SessionAccess(id: "s-1", token: CapabilityToken("t"))
            _ = telemetry.sending(
                .message(text: "hi", requestID: requestID), access: access,
                tag: .message(requestID: requestID, epoch: 1))
        }
    }

    static let waiter = WaiterID(rawValue: 1)

    @Test func anAnsweredQuestionIsTimedFromItsAskAndCarriesItsUsage() throws {
        let recorded = try Recorded()
        recorded.telemetry.asked(requestID: "r1", waiter: Self.waiter, parent: nil)
        recorded.post("r1")
        recorded.clock.advance(by: .seconds(3))
        recorded.telemetry.turnFinished(
            requestID: "r1", turnID: "turn-1", outcome: .success(.answered),
            usage: TokenUsage(promptTokens: 10, completionTokens: 2))
        #expect(recorded.sample(#"resolvekit_turns_total{ending="answered"}"#) == 1)
        #expect(recorded.sample(#"resolvekit_turn_duration_seconds_sum{ending="answered"}"#) == 3)
        let turn = try #require(recorded.spans.all.first { $0.name == "invoke_agent" })
        #expect(turn.attribute("gen_ai.conversation.id") == "s-1")
        #expect(turn.attribute("resolvekit.turn.id") == "turn-1")
        #expect(turn.attribute("gen_ai.usage.input_tokens") == 10)
    }

    @Test func aCallerThatGaveUpBeforeTheMessageWentOutEndsTheQuestionAtOnce() throws {
        let recorded = try Recorded()
        recorded.telemetry.asked(requestID: "r1", waiter: Self.waiter, parent: nil)
        recorded.telemetry.replied(Self.waiter, .turn(.failure(ResolveKitError(.turnTimedOut, "No answer"))))
        #expect(recorded.sample(#"resolvekit_turns_total{ending="timed_out"}"#) == 1)
        #expect(recorded.spans.all.first?.attribute("error.type") == "timeout")
    }

    @Test func aCallerThatGaveUpAfterTheMessageWentOutLeavesTheTurnToEndAsTimedOut() throws {
        let recorded = try Recorded()
        recorded.telemetry.asked(requestID: "r1", waiter: Self.waiter, parent: nil)
        recorded.post("r1")
        recorded.telemetry.replied(Self.waiter, .turn(.failure(ResolveKitError(.turnTimedOut, "No answer"))))
        #expect(recorded.sample(#"resolvekit_turns_total{ending="timed_out"}"#) == nil, "the turn still runs")
        recorded.clock.advance(by: .seconds(2))
        recorded.telemetry.turnFinished(requestID: "r1", turnID: "t", outcome: .success(.answered), usage: nil)
        #expect(recorded.sample(#"resolvekit_turns_total{ending="timed_out"}"#) == 1)
        #expect(recorded.sample(#"resolvekit_turn_duration_seconds_sum{ending="timed_out"}"#) == 2)
    }

    @Test func aMessageThatFailedIsAFailedQuestion() throws {
        let recorded = try Recorded()
        recorded.telemetry.asked(requestID: "r1", waiter: Self.waiter, parent: nil)
        recorded.post("r1")
        recorded.telemetry.replied(Self.waiter, .sent(.failed(ResolveKitError(.backend, "refused"))))
        #expect(recorded.sample(#"resolvekit_turns_total{ending="failed"}"#) == 1)
    }

    @Test func anotherClientsTurnIsTimedFromWhenItWasSeen() throws {
        let recorded = try Recorded()
        recorded.telemetry.turnStarted(turnID: "t-other")
        recorded.clock.advance(by: .seconds(4))
        let lost = ResolveKitError(.turnLost, "lost")
        recorded.telemetry.turnFinished(requestID: nil, turnID: "t-other", outcome: .failure(lost), usage: nil)
        #expect(recorded.sample(#"resolvekit_turns_total{ending="lost"}"#) == 1)
        #expect(recorded.sample(#"resolvekit_turn_duration_seconds_sum{ending="lost"}"#) == 4)
        #expect(recorded.spans.all.isEmpty, "no question of this process, no span")
    }

    @Test func theRunsEndGivesBackWhatItCountedAndEndsOpenQuestionsAsCancelled() throws {
        let recorded = try Recorded()
        recorded.telemetry.sessionOpened("s-1")
        recorded.telemetry.changed(queuedAsks: 2, journalEntries: 5)
        recorded.telemetry.asked(requestID: "r1", waiter: Self.waiter, parent: nil)
        #expect(recorded.sample("resolvekit_sessions_open") == 1)
        #expect(recorded.sample("resolvekit_asks_queued") == 2)
        recorded.telemetry.finished(queuedAsks: 2, journalEntries: 5)
        #expect(recorded.sample("resolvekit_sessions_open") == 0)
        #expect(recorded.sample("resolvekit_asks_queued") == 0)
        #expect(recorded.sample("resolvekit_journal_entries") == 0)
        #expect(recorded.sample(#"resolvekit_turns_total{ending="cancelled"}"#) == 1)
    }
}
