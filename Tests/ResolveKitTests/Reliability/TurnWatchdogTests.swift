import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TurnWatchdogTests {
    struct LongTask: AnyResolveKitFunction {
        static let resolveKitName = "long_task"
        static let resolveKitDescription = "Takes long to approve."
        static let resolveKitTimeoutSeconds: Int? = 300
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            return "done"
        }
    }

    /// The watchdog must not spin while a call is outstanding past its period: it sleeps a full period again.
    @Test func aCallAwaitingApprovalLongerThanTheWatchdogPeriodLeavesTheWatchdogAsleep() async throws {
        let clock = ManualClock()
        let (decisions, decide) = AsyncStream<Void>.makeStream()
        let approver = ClosureApprover { _ in
            for await _ in decisions { return .approveAll }
            return .declineAll(reason: nil)
        }
        let rule = AgentScript.Rule(.keywords(["long task"]), rounds: [.toolCalls([.init("long_task")]), .text("Long done.")])
        let backend = ReferenceBackend.Configuration(script: AgentScript(rules: TestTools.rules + [rule]))
        try await RuntimeHarness.run(backend) { harness in
            var configuration = harness.configuration(approver: approver, clock: ResolveKitClock(clock))
            configuration.functions.append(LongTask.self)
            try await harness.withRuntime(configuration) { runtime in
                _ = await runtime.sendMessage("please run the long task")
                await clock.waitForSleeper(at: .init(offset: .milliseconds(250)))
                clock.advance(by: .milliseconds(250))
                await runtime.wait { $0.item("long_task")?.status == .pendingApproval }
                clock.advance(by: .seconds(90))
                await clock.waitForSleeper(at: clock.now.advanced(by: .seconds(60)))
                decide.yield()
                await runtime.wait { !$0.isTurnInProgress }
                #expect(runtime.messages.last?.text == "Long done.")
            }
        }
    }
}
