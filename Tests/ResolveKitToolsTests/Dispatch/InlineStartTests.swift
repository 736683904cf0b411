import Dispatch
import Synchronization
import Testing

@testable import ResolveKitTools

/// A call's function runs on the dispatching thread until its first suspension; a function that holds that thread
/// past the budget is reported once and then starts on a task of its own.
@Suite(.timeLimit(.minutes(1)))
struct InlineStartTests {
    /// Records that it ran, without suspending.
    struct Stamp: AnyResolveKitFunction {
        static let resolveKitName = "stamp"
        static let resolveKitDescription = "Records that it ran."
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static let calls = Mutex<[String]>([])
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            calls.withLock { $0.append(context.callID?.rawValue ?? "") }
            return "stamped"
        }
    }

    /// Blocks its thread: past the budget on its first call, then until the test opens the gate (10 s at most).
    struct Hog: AnyResolveKitFunction {
        static let resolveKitName = "hog"
        static let resolveKitDescription = "Blocks its thread."
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static let gate = DispatchSemaphore(value: 0)
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            if context.callID == "first" {
                let end = ContinuousClock.now + ToolDispatcher.inlineBudget + .milliseconds(10)
                while ContinuousClock.now < end {}
                return "done"
            }
            return gate.wait(timeout: .now() + .seconds(10)) == .success ? "done" : "the gate stayed shut"
        }
    }

    /// The warnings the dispatcher logged.
    final class Warnings: Sendable {
        let lines = Mutex<[String]>([])
    }

    let warnings = Warnings()

    func dispatcher() -> ToolDispatcher {
        let warnings = self.warnings
        return ToolDispatcher(
            registry: try! ResolveKitRegistry(functions: [Stamp.self, Hog.self]), clock: .continuous,
            logger: ResolveKitLogger(label: "test", minimumLevel: .warning) { record in
                warnings.lines.withLock { $0.append(record.message) }
            },
            dependencies: ResolveKitDependencies())
    }

    func start(_ function: any AnyResolveKitFunction.Type, callID: String, on dispatcher: ToolDispatcher)
        -> RunningCall
    {
        let call = PendingToolCall(
            callID: ToolCallID(callID), turnID: "t", functionName: function.resolveKitName, arguments: [:], humanDescription: "",
            requiresApproval: false, timeoutSeconds: 30, receivedAt: .zero)
        return dispatcher.start(
            function, arguments: [:], call: call, sessionID: "s", deadline: dispatcher.clock.elapsed + .seconds(30))
    }

    @Test func aFunctionThatDoesNotSuspendHasRunWhenStartReturns() async {
        let running = start(Stamp.self, callID: "inline", on: dispatcher())
        #expect(Stamp.calls.withLock { $0.contains("inline") })
        #expect(await running.outcome() == .success("stamped"))
    }

    @Test func aFunctionThatHoldsItsCallerTooLongIsReportedOnceThenStartsOnItsOwnTask() async {
        let dispatcher = dispatcher()
        #expect(await start(Hog.self, callID: "first", on: dispatcher).outcome() == .success("done"))
        #expect(warnings.lines.withLock { $0.count } == 1)
        #expect(warnings.lines.withLock { $0.first?.contains("Function hog ran") } == true)
        // Run on this thread, the second call would wait here for the gate this test opens only after `start`.
        let second = start(Hog.self, callID: "second", on: dispatcher)
        Hog.gate.signal()
        #expect(await second.outcome() == .success("done"))
        #expect(warnings.lines.withLock { $0.count } == 1)
    }
}
