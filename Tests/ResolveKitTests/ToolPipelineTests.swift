import Testing

@testable import ResolveKit

struct ToolPipelineTests {
    static func call(_ id: String, turn: String = "t1", approval: Bool, at: Duration = .zero) -> PendingToolCall {
        PendingToolCall(
            callID: id, turnID: turn, functionName: "f", arguments: [:], humanDescription: "", requiresApproval: approval,
            timeoutSeconds: 30, receivedAt: at)
    }

    @Test func aRefusedCallIsAnsweredAtOnceAndNeverBatched() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250), maxConcurrentCalls: 2)
        let admission = pipeline.admit(Self.call("a", approval: true), refusal: .unknownFunction("f"), now: .zero)
        #expect(admission == .refuse(.unknownFunction("f")))
        // The window was never opened: the next call needing approval opens it.
        let value1 = pipeline.admit(Self.call("b", approval: true), refusal: nil, now: .zero)
        #expect(value1 == .armWindow(deadline: .milliseconds(250)))
    }

    @Test func callsNeedingApprovalShareOneWindowAndApprovalFreeOnesRunAtOnce() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250), maxConcurrentCalls: 2)
        let value2 = pipeline.admit(Self.call("a", approval: true), refusal: nil, now: .zero)
        #expect(value2 == .armWindow(deadline: .milliseconds(250)))
        let value3 = pipeline.admit(Self.call("b", approval: false), refusal: nil, now: .zero)
        #expect(value3 == .run)
        let value4 = pipeline.admit(Self.call("c", approval: true), refusal: nil, now: .milliseconds(10))
        #expect(value4 == .wait)
        let batch = pipeline.windowElapsed()
        #expect(batch?.calls.map(\.callID) == ["a", "c"])
    }

    @Test func oneLimitCoversEveryCallAndAClosedCallLeavesTheQueue() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250), maxConcurrentCalls: 1)
        for id in ["a", "b", "c"] { _ = pipeline.admit(Self.call(id, approval: false), refusal: nil, now: .zero) }
        let value5 = pipeline.requestSlot("a")
        #expect(value5)
        let value6 = pipeline.requestSlot("b")
        #expect(!value6)
        let value7 = pipeline.requestSlot("c")
        #expect(!value7)
        let value8 = pipeline.closed("b")
        #expect(value8)
        #expect(!pipeline.isOpen("b"))
        let value9 = pipeline.releaseSlot()
        #expect(value9 == "c")
    }

    @Test func drainingRefusesNewCallsAndReturnsTheUnstartedOnes() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250), maxConcurrentCalls: 1)
        _ = pipeline.admit(Self.call("a", approval: true), refusal: nil, now: .zero)
        _ = pipeline.admit(Self.call("b", approval: false), refusal: nil, now: .zero)
        _ = pipeline.requestSlot("x")
        _ = pipeline.requestSlot("b")
        let unstarted = pipeline.beginDrain(waitingForSlot: ["b"]).map(\.callID)
        #expect(unstarted == ["a", "b"])
        let value10 = pipeline.admit(Self.call("c", approval: false), refusal: nil, now: .zero)
        #expect(value10 == .refuse(.cancelled("The service is shutting down; try again later")))
    }

    @Test func theCallsOfATurnAndTheOutstandingOnesAreFoundAmongTheOpenCalls() {
        var pipeline = ToolPipeline(batchWindow: .milliseconds(250), maxConcurrentCalls: 4)
        _ = pipeline.admit(Self.call("a", turn: "t1", approval: false, at: .seconds(1)), refusal: nil, now: .zero)
        _ = pipeline.admit(Self.call("b", turn: "t2", approval: false), refusal: nil, now: .zero)
        _ = pipeline.admit(Self.call("c", turn: "t1", approval: false), refusal: nil, now: .zero)
        #expect(pipeline.openCalls(ofTurn: "t1").map(\.callID) == ["c", "a"])
        #expect(pipeline.hasOutstandingCalls(now: .seconds(29)))
        #expect(!pipeline.hasOutstandingCalls(now: .seconds(31)))
    }
}
