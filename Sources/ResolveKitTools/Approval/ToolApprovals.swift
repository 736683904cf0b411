import Foundation
import Synchronization

/// The calls waiting for approval, decided from any task: a person at another terminal (`rk-approve`), a web
/// hook, the host's own code. The first decision for a call wins, whoever makes it; the configured approver is
/// asked at the same time, and is cancelled once every call of its batch is decided.
///
/// ```swift
/// for await update in runtime.approvals.updates {
///     if case .requested(let request) = update {
///         try runtime.approvals.approve(callIDs: request.calls.map(\.id), by: .host("ops-bot"))
///     }
/// }
/// ```
/// A runtime has its own; a ``ResolveKitHost``'s sessions share the host's. With ``Deferred`` as the approver,
/// every decision is left to these calls. A call nobody decides is declined just before the server stops waiting.
public final class ToolApprovals: Sendable {
    /// A change: a batch to decide, a decision, a call withdrawn, a remembered decision added or revoked.
    public enum Update: Sendable, Hashable {
        /// Calls wait for a decision.
        case requested(ToolApprovalRequest)
        /// A call of a session was decided; the decision carries who decided.
        case decided(sessionID: String, callID: ToolCallID, ToolCallDecision)
        /// A call no longer waits without being decided here: its turn ended or its session stopped.
        case withdrawn(sessionID: String, callID: ToolCallID)
        /// A decision was remembered.
        case remembered(Remembered)
        /// A remembered decision was revoked.
        case revoked(id: String)
    }

    /// An approver that decides nothing itself: every call waits for ``approve(callIDs:by:)`` or
    /// ``decline(callIDs:reason:by:)`` from any task, until its deadline.
    public struct Deferred: ToolApprover {
        /// Creates the approver.
        public init() {}

        /// Waits until cancelled; the runtime cancels it once every call is decided or due.
        public func decide(_ request: ToolApprovalRequest) async -> ToolBatchDecision {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return .perCall([:])
        }
    }

    struct Entry: Sendable {
        var call: PendingToolCall
        var batchID: Int
        var sessionID: String
        var deadline: Duration
        var clock: ResolveKitClock
        var schema: JSONSchema?
        var decision: ToolCallDecision?
    }

    /// A call is known by its session and id: call ids come from the model, and two sessions may well both
    /// have a `call_0`.
    struct Key: Hashable, Sendable {
        var sessionID: String
        var callID: ToolCallID
    }

    struct Waiter: Sendable {
        var keys: Set<Key>
        var continuation: CheckedContinuation<Void, Never>
    }

    struct State: Sendable {
        var entries: [Key: Entry] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
        var remembered: [Remembered] = []
        var rememberedLoaded = false
    }

    let state = Mutex(State())
    let broadcaster = EventBroadcaster<Update>()
    /// Where remembered decisions are kept; `nil` keeps them in memory only (or in ``sharedRemembered``).
    let rememberedFile: String?
    /// Where replicas share remembered decisions, read before each decision; `nil` for ``rememberedFile``.
    let sharedRemembered: (any SharedRememberedApprovals)?
    /// The SHA-256 of each registered function's schema: a remembered decision holds only for the same schema.
    let schemaDigests: [String: String]

    /// Creates an empty set for the functions of `registry`; remembered decisions are kept in `shared` when given
    /// (replicas), else in `rememberedFile` when given, else in memory.
    package init(
        rememberedFile: String?, registry: ResolveKitRegistry?, shared: (any SharedRememberedApprovals)? = nil
    ) {
        self.rememberedFile = rememberedFile
        self.sharedRemembered = shared
        self.schemaDigests = Self.schemaDigests(registry)
    }

    /// Every change from the moment of access on; each access is a new subscription.
    public var updates: AsyncStream<Update> { broadcaster.subscribe() }

    /// The calls waiting for a decision, by batch in arrival order, each with the time left at the moment of
    /// access.
    public var pending: [ToolApprovalRequest] {
        let waiting = state.withLock { $0.entries.values.filter { $0.decision == nil } }
        let batches = Dictionary(grouping: waiting) { BatchKey(sessionID: $0.sessionID, batchID: $0.batchID) }
        return batches.map { key, entries in
            let calls = entries.sorted { $0.call.receivedAt < $1.call.receivedAt }.map {
                ToolApprovalRequest.Call(call: $0.call, timeRemaining: max(.zero, $0.deadline - $0.clock.elapsed))
            }
            return ToolApprovalRequest(batchID: key.batchID, calls: calls, sessionID: key.sessionID)
        }.sorted { ($0.calls.first?.call.receivedAt ?? .zero) < ($1.calls.first?.call.receivedAt ?? .zero) }
    }

    private struct BatchKey: Hashable {
        var sessionID: String
        var batchID: Int
    }

    /// Approves calls waiting for a decision.
    /// - Parameter sessionID: the session of the calls; needed only when the same call id waits in several
    ///   sessions.
    /// - Throws: ``ResolveKitError/Code/approvalNotPending`` naming the first call that is not waiting (decided
    ///   already, withdrawn, unknown, or ambiguous without `sessionID`); no call is decided then.
    public func approve(callIDs: [ToolCallID], in sessionID: String? = nil, by decider: ToolCallDecision.Decider)
        throws(ResolveKitError)
    {
        try decide(callIDs.map { ($0, .attributed(.approve, by: decider)) }, in: sessionID)
    }

    /// Declines calls waiting for a decision; the model is told `reason` (default "User denied action").
    /// - Throws: ``ResolveKitError/Code/approvalNotPending`` as ``approve(callIDs:in:by:)``.
    public func decline(
        callIDs: [ToolCallID], in sessionID: String? = nil, reason: String? = nil, by decider: ToolCallDecision.Decider
    ) throws(ResolveKitError) {
        try decide(callIDs.map { ($0, .attributed(.decline(reason: reason), by: decider)) }, in: sessionID)
    }

    /// Approves one call with arguments a person edited. They are coerced and validated against the function's
    /// schema first; the model is told the call ran with changed arguments.
    /// - Throws: ``ResolveKitError/Code/invalidArguments`` listing what the schema refuses, or
    ///   ``ResolveKitError/Code/approvalNotPending``.
    public func approve(
        callID: ToolCallID, in sessionID: String? = nil, arguments: JSONValue, by decider: ToolCallDecision.Decider
    ) throws(ResolveKitError) {
        let schema = state.withLock { state in
            (try? Self.key(callID, in: sessionID, state)).flatMap { state.entries[$0]?.schema }
        }
        var edited = arguments
        if let schema {
            guard case .object = arguments else {
                throw ResolveKitError(.invalidArguments, "Edited arguments for \(callID) must be a JSON object")
            }
            edited = schema.coerce(arguments)
            let violations = schema.validate(edited)
            guard violations.isEmpty else {
                throw ResolveKitError(
                    .invalidArguments,
                    "Edited arguments for \(callID): " + violations.map(\.description).joined(separator: "; "))
            }
        }
        try decide([(callID, .attributed(.approveEdited(arguments: edited), by: decider))], in: sessionID)
    }

    /// The key of `callID` in `sessionID`, or of the only session where it waits.
    static func key(_ callID: ToolCallID, in sessionID: String?, _ state: State) throws(ResolveKitError) -> Key {
        if let sessionID { return Key(sessionID: sessionID, callID: callID) }
        let matching = state.entries.keys.filter { $0.callID == callID }
        guard matching.count <= 1 else {
            throw ResolveKitError(
                .approvalNotPending,
                "Call \(callID) waits in \(matching.count) sessions; name the session to decide it")
        }
        return matching.first ?? Key(sessionID: "", callID: callID)
    }

    /// Records decisions all or nothing, wakes whoever waits for them and announces them.
    package func decide(_ decisions: [(callID: ToolCallID, decision: ToolCallDecision)], in sessionID: String?)
        throws(ResolveKitError)
    {
        let (keyed, woken) = try state.withLock { state throws(ResolveKitError) in
            var keyed: [(Key, ToolCallDecision)] = []
            for (callID, decision) in decisions {
                let key = try Self.key(callID, in: sessionID, state)
                guard let entry = state.entries[key] else {
                    throw ResolveKitError(.approvalNotPending, "No call \(callID) is waiting for approval")
                }
                if let earlier = entry.decision {
                    let who = earlier.decider.map { " by \($0)" } ?? ""
                    throw ResolveKitError(.approvalNotPending, "Call \(callID) was already decided\(who)")
                }
                keyed.append((key, decision))
            }
            for (key, decision) in keyed { state.entries[key]?.decision = decision }
            return (keyed, Self.takeSatisfiedWaiters(&state))
        }
        for (key, decision) in keyed {
            broadcaster.send(.decided(sessionID: key.sessionID, callID: key.callID, decision))
        }
        for continuation in woken { continuation.resume() }
    }

    static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        var woken: [CheckedContinuation<Void, Never>] = []
        for (id, waiter) in state.waiters
        where waiter.keys.allSatisfy({ state.entries[$0].map { $0.decision != nil } ?? true }) {
            woken.append(waiter.continuation)
            state.waiters[id] = nil
        }
        return woken
    }
}
