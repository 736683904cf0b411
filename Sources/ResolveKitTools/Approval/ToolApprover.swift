/// Decides whether the calls of a batch may run: a person at a terminal, a policy, or the host's own code.
///
/// The runtime calls ``decide(_:)`` once per batch, with each call's deadline. When a call's deadline comes
/// before a decision, the runtime declines that call itself ("Approval timed out"), cancels the pending
/// decision and asks again for the calls still in time. Implementations should return promptly when cancelled.
public protocol ToolApprover: Sendable {
    /// Decides a batch.
    func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision

    /// Whether one of this approver's rules denies the call outright. A remembered decision never overrides such
    /// a rule. The default is `false`.
    func denies(_ call: PendingToolCall) -> Bool

    /// Whether this approver decides a call although its function needs no approval: one of its rules names the
    /// function and denies the call or asks about it. The operator's rule wins over the function's registration.
    /// The default is `false`: such calls run without asking anyone.
    func gates(_ call: PendingToolCall) -> Bool
}

extension ToolApprover {
    /// No rule denies outright.
    public func denies(_ call: PendingToolCall) -> Bool { false }

    /// No rule reaches calls that need no approval.
    public func gates(_ call: PendingToolCall) -> Bool { false }
}

/// What an approver is asked.
public struct ToolApprovalRequest: Sendable, Hashable {
    /// One call to decide.
    public struct Call: Sendable, Hashable, Identifiable {
        /// The pending call.
        public var call: PendingToolCall
        /// How long is left before the server stops waiting, at the moment of asking.
        public var timeRemaining: Duration
        /// Whether the local registration requires approval; `false` for a call an approver's rule gates
        /// (``ToolApprover/gates(_:)``).
        public var requiresApproval: Bool { call.requiresApproval }
        /// The call id.
        public var id: ToolCallID { call.callID }

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
    case perCall([ToolCallID: ToolCallDecision])

    /// The same decisions without who made them, in the shortest form: `approveAll` when every call is
    /// approved as the model asked, `declineAll` when every call is declined for the same reason.
    public var unattributed: ToolBatchDecision {
        guard case .perCall(let decisions) = self, let first = decisions.first?.value.verdict else { return self }
        let verdicts = decisions.mapValues(\.verdict)
        guard verdicts.values.allSatisfy({ $0 == first }) else { return .perCall(verdicts) }
        switch first {
        case .approve: return .approveAll
        case .decline(let reason): return .declineAll(reason: reason)
        case .approveEdited, .attributed: return .perCall(verdicts)
        }
    }

    /// The decision for one call.
    public func decision(for callID: ToolCallID) -> ToolCallDecision {
        switch self {
        case .approveAll: .approve
        case .declineAll(let reason): .decline(reason: reason)
        case .perCall(let decisions): decisions[callID] ?? .decline(reason: nil)
        }
    }
}

/// The decision for one call.
public indirect enum ToolCallDecision: Sendable, Hashable {
    /// Run it.
    case approve
    /// Do not run it; `reason` is what the model is told (default "User denied action").
    case decline(reason: String?)
    /// Run it with these arguments instead of the model's: a person corrected them. They are validated against
    /// the function's schema, and the model is told the call ran with arguments a person changed.
    case approveEdited(arguments: JSONValue)
    /// A decision together with who made it, as the audit trail records it.
    case attributed(ToolCallDecision, by: Decider)

    /// The decision without its attribution.
    public var verdict: ToolCallDecision {
        if case .attributed(let decision, _) = self { return decision.verdict }
        return self
    }

    /// Who made the decision, when the approver said so.
    public var decider: Decider? {
        if case .attributed(let decision, let decider) = self { return decision.decider ?? decider }
        return nil
    }

    /// Whether the call may run.
    public var approves: Bool {
        switch verdict {
        case .approve, .approveEdited: true
        case .decline, .attributed: false
        }
    }

    /// Who or what decides a call: kept with each decision in the audit trail.
    public enum Decider: Sendable, Hashable, CustomStringConvertible {
        /// A person: their user id and process id (from the socket's peer credentials, or this process), and the
        /// terminal they answered at when known.
        case person(uid: UInt32, pid: Int32, terminal: String?)
        /// A policy rule, e.g. `read_log_tail rule 2 (policy.json:7:9)` or `default`.
        case policy(rule: String)
        /// A remembered decision, by its id.
        case remembered(id: String)
        /// Nobody decided before the call's deadline.
        case timeout
        /// No one was asked: the function needs no approval, or an approver that approves everything.
        case automatic(reason: String)
        /// The host program's own code, named by the host.
        case host(String)

        /// `person uid 1000 pid 4242 on /dev/pts/3`, `policy read_log_tail rule 2`, …
        public var description: String {
            switch self {
            case .person(let uid, let pid, let terminal):
                "person uid \(uid) pid \(pid)" + (terminal.map { " on \($0)" } ?? "")
            case .policy(let rule): "policy \(rule)"
            case .remembered(let id): "remembered decision \(id)"
            case .timeout: "timeout"
            case .automatic(let reason): "automatic (\(reason))"
            case .host(let name): "host \(name)"
            }
        }
    }
}

/// Approves every call. For trusted hosts and tests.
public struct AutoApprover: ToolApprover {
    /// Creates the approver.
    public init() {}
    /// Approves all.
    public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
        .perCall(
            Dictionary(
                uniqueKeysWithValues: request.calls.map {
                    ($0.id, .attributed(.approve, by: .automatic(reason: "every call is approved")))
                }))
    }
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
