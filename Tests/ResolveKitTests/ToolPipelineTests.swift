import Testing

@testable import ResolveKit

struct ToolPipelineTests {
    static func call(_ id: ToolCallID, turn: String = "t1", approval: Bool, at: Duration = .zero) -> PendingToolCall {
        PendingToolCall(
            callID: id, turnID: turn, functionName: "f", arguments: [:], humanDescription: "", requiresApproval: approval,
            timeoutSeconds: 30, receivedAt: at)
    }

    @Test func callsNeedingApprovalShareOneWindowAndApprovalFreeOnesRunAtOnce() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250))
        #expect(pipeline.admit(Self.call("a", approval: true), now: .zero) == .armWindow(deadline: .milliseconds(250)))
        #expect(pipeline.admit(Self.call("b", approval: false), now: .zero) == .run)
        #expect(pipeline.admit(Self.call("c", approval: true), now: .milliseconds(10)) == .wait)
        let batch = pipeline.windowElapsed()
        #expect(batch?.calls.map(\.callID) == ["a", "c"])
    }

    @Test func aBatchWaitsForTheOneBeforeItAndAClosedCallIsNoLongerOpen() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250))
        _ = pipeline.admit(Self.call("a", approval: true), now: .zero)
        #expect(pipeline.windowElapsed()?.calls.map(\.callID) == ["a"])
        _ = pipeline.admit(Self.call("b", approval: true), now: .seconds(1))
        #expect(pipeline.windowElapsed() == nil)
        #expect(pipeline.batchFinished()?.calls.map(\.callID) == ["b"])
        pipeline.closed("a")
        #expect(!pipeline.isOpen("a"))
        #expect(pipeline.isOpen("b"))
    }

    @Test func drainingRefusesNewCallsAndReturnsTheOnesNotHandedOn() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250))
        _ = pipeline.admit(Self.call("a", approval: true), now: .zero)
        _ = pipeline.admit(Self.call("b", approval: false), now: .zero)
        #expect(pipeline.beginDrain().map(\.callID) == ["a"])
        let refused = pipeline.admit(Self.call("c", approval: false), now: .zero)
        #expect(refused == .refuse(.cancelled("The service is shutting down; try again later")))
    }

    @Test func theCallsOfATurnAndTheOutstandingOnesAreFoundAmongTheOpenCalls() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250))
        _ = pipeline.admit(Self.call("a", turn: "t1", approval: false, at: .seconds(1)), now: .zero)
        _ = pipeline.admit(Self.call("b", turn: "t2", approval: false), now: .zero)
        _ = pipeline.admit(Self.call("c", turn: "t1", approval: false), now: .zero)
        #expect(pipeline.openCalls(ofTurn: "t1").map(\.callID) == ["c", "a"])
        #expect(pipeline.hasOutstandingCalls(now: .seconds(29)))
        #expect(!pipeline.hasOutstandingCalls(now: .seconds(31)))
    }

    @Test func theEndOfASessionReturnsEveryOpenCallOldestFirst() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250))
        _ = pipeline.admit(Self.call("late", approval: false, at: .seconds(2)), now: .zero)
        _ = pipeline.admit(Self.call("early", approval: true, at: .seconds(1)), now: .zero)
        #expect(pipeline.endSession().map(\.callID) == ["early", "late"])
    }
}
