@testable import ResolveKit
import Testing

struct ToolBatcherStateMachineTests {
    func call(_ id: String, approval: Bool = true) -> PendingToolCall {
        PendingToolCall(
            callID: ToolCallID(id), turnID: "t", functionName: "f", arguments: [:], humanDescription: "I will run f",
            requiresApproval: approval, timeoutSeconds: 30, receivedAt: .zero)
    }

    @Test func runsCallsThatNeedNoApprovalImmediately() {
        var machine = ToolBatcherStateMachine(windowLength: .milliseconds(250))
        #expect(machine.receive(call("a", approval: false), now: .zero) == .runImmediately(call("a", approval: false)))
        #expect(machine.windowElapsed() == .none)
    }

    @Test func coalescesCallsInOneWindowThatDoesNotSlide() {
        var machine = ToolBatcherStateMachine(windowLength: .milliseconds(250))
        #expect(machine.receive(call("a"), now: .milliseconds(10)) == .armWindow(deadline: .milliseconds(260)))
        #expect(machine.receive(call("b"), now: .milliseconds(200)) == .none)
        #expect(machine.receive(call("c"), now: .milliseconds(255)) == .none)
        #expect(machine.windowElapsed() == .present(ToolCallBatch(id: 1, calls: [call("a"), call("b"), call("c")])))
    }

    @Test func queuesBatchesFirstInFirstOutWhileOneIsInProgress() {
        var machine = ToolBatcherStateMachine(windowLength: .milliseconds(250))
        _ = machine.receive(call("a"), now: .zero)
        #expect(machine.windowElapsed() == .present(ToolCallBatch(id: 1, calls: [call("a")])))
        #expect(machine.receive(call("b"), now: .seconds(1)) == .armWindow(deadline: .milliseconds(1250)))
        #expect(machine.windowElapsed() == .none)
        _ = machine.receive(call("c"), now: .seconds(2))
        #expect(machine.windowElapsed() == .none)
        #expect(machine.queuedBatchCount == 2)
        #expect(machine.batchFinished() == .present(ToolCallBatch(id: 2, calls: [call("b")])))
        #expect(machine.batchFinished() == .present(ToolCallBatch(id: 3, calls: [call("c")])))
        #expect(machine.batchFinished() == .none)
    }

    @Test func aBatchInProgressWhenTheSessionEndsDoesNotHoldBackTheNextSessionsBatches() {
        var machine = ToolBatcherStateMachine(windowLength: .milliseconds(250))
        _ = machine.receive(call("a"), now: .zero)
        #expect(machine.windowElapsed() == .present(ToolCallBatch(id: 1, calls: [call("a")])))
        _ = machine.receive(call("b"), now: .seconds(1))
        #expect(machine.endSession() == [call("b")])
        // The job of batch 1 ended with the session and never reports back.
        #expect(machine.receive(call("c"), now: .seconds(2)) == .armWindow(deadline: .milliseconds(2250)))
        #expect(machine.windowElapsed() == .present(ToolCallBatch(id: 2, calls: [call("c")])))
    }

    @Test func drainingReturnsEveryCallNotYetPresented() {
        var machine = ToolBatcherStateMachine(windowLength: .milliseconds(250))
        _ = machine.receive(call("a"), now: .zero)
        _ = machine.windowElapsed()
        _ = machine.receive(call("b"), now: .zero)
        _ = machine.windowElapsed()
        _ = machine.receive(call("c"), now: .zero)
        #expect(machine.drain().map(\.callID) == ["b", "c"])
        #expect(machine.windowElapsed() == .none)
    }
}
