/// Decides whether the calls of a batch may run: a person at a terminal, a policy, or the host's own code.
///
/// The runtime calls ``decide(_:)`` once per batch, with each call's deadline. When a call's deadline comes
/// before a decision, the runtime declines that call itself ("Approval timed out"), cancels the pending
/// decision and asks again for the calls still in time. Implementations should return promptly when cancelled.
public protocol ToolApprover: Sendable {
    /// Decides a batch.
    func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision
}

/// What an approver is asked.
public struct ToolApprovalRequest: Sendable {
    /// One call to decide.
    public struct Call: Sendable, Hashable, Identifiable {
        /// The pending call.
        public var call: PendingToolCall
        /// How long is left before the server stops waiting, at the moment of asking.
        public var timeRemaining: Duration
        /// Whether the local registration requires approval (always true in approval batches today).
        public var requiresApproval: Bool { call.requiresApproval }
        /// The call id.
        public var id: String { call.callID }

        /// Creates a call to decide (for custom approvers' tests and for approvers that ask others).
        public init(call: PendingToolCall, timeRemaining: Duration) {
            self.call = call
            self.timeRemaining = timeRemaining
        }
    }

    /// The batch number.
    public var batchID: Int
    /// The calls, in arrival order.
    public var calls: [Call]
    /// The session the batch belongs to.
    public var sessionID: String

    /// Creates a request (for approvers' tests and for approvers that ask others about part of a batch).
    public init(batchID: Int, calls: [Call], sessionID: String) {
        self.batchID = batchID
        self.calls = calls
        self.sessionID = sessionID
    }
}

/// An approver's answer for one batch.
public enum ToolBatchDecision: Sendable, Hashable {
    /// Run every call.
    case approveAll
    /// Run none; `reason` is what the model is told (default "User denied action").
    case declineAll(reason: String?)
    /// Decide call by call; a call missing from the map is declined.
    case perCall([String: ToolCallDecision])

    /// The decision for one call.
    public func decision(for callID: String) -> ToolCallDecision {
        switch self {
        case .approveAll: .approve
        case .declineAll(let reason): .decline(reason: reason)
        case .perCall(let decisions): decisions[callID] ?? .decline(reason: nil)
        }
    }
}

/// The decision for one call.
public enum ToolCallDecision: Sendable, Hashable {
    /// Run it.
    case approve
    /// Do not run it; `reason` is what the model is told (default "User denied action").
    case decline(reason: String?)
}

/// Approves every call. For trusted hosts and tests.
public struct AutoApprover: ToolApprover {
    /// Creates the approver.
    public init() {}
    /// Approves all.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision { .approveAll }
}

/// Declines every call; the safe default when nobody can be asked.
public struct DenyAllApprover: ToolApprover {
    /// The reason the model is told.
    public var reason: String

    /// Creates the approver.
    public init(reason: String = "User denied action") { self.reason = reason }
    /// Declines all.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision { .declineAll(reason: reason) }
}

/// Approves with a closure, for hosts that decide in their own code.
public struct ClosureApprover: ToolApprover {
    private let body: @Sendable (ToolApprovalRequest) async -> ToolBatchDecision

    /// Creates an approver that calls `body` for each batch.
    public init(_ body: @escaping @Sendable (ToolApprovalRequest) async -> ToolBatchDecision) { self.body = body }
    /// Calls the closure.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision { await body(request) }
}
