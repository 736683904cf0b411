public import Foundation
import Synchronization

extension ToolApprovals {
    /// "Allow this function" remembered: for one session, until a time, or always; optionally only with exactly
    /// the same arguments. Kept in the state folder, so it survives a restart. It never overrides a rule that
    /// denies the call, and it stops matching when the function's schema changes.
    public struct Remembered: Sendable, Hashable, Identifiable {
        /// How long a remembered decision holds.
        public enum Scope: Sendable, Hashable {
            /// While this session lasts.
            case session(String)
            /// Until this moment.
            case until(Date)
            /// Until revoked.
            case always
        }

        /// A short id, for listing and revoking.
        public var id: String
        /// The function it allows.
        public var functionName: String
        /// When set, only calls with exactly these arguments match (compared as canonical JSON).
        public var arguments: JSONValue?
        /// When set, only calls whose arguments satisfy these conditions match (a rule, as a policy writes one).
        public var conditions: [PolicyApprover.ArgumentRule.Conditioned]?
        /// How long it holds.
        public var scope: Scope
        /// The SHA-256 of the function's parameter schema when it was remembered.
        public var schemaDigest: String
        /// When it was remembered.
        public var createdAt: Date
        /// Who remembered it, as ``ToolCallDecision/Decider/description`` says it.
        public var createdBy: String

        /// Whether the decision applies to `call` in `sessionID` at `now`, given the function's schema digest today.
        func matches(_ call: PendingToolCall, sessionID: String, schemaDigest current: String?, now: Date) -> Bool {
            guard call.functionName == functionName, current == schemaDigest else { return false }
            switch scope {
            case .session(let id) where id != sessionID: return false
            case .until(let end) where end <= now: return false
            default: break
            }
            if let conditions, !PolicyApprover.ArgumentRule.all(conditions, holdFor: call.arguments) { return false }
            guard let arguments else { return true }
            return arguments.serializedBytes(options: .sortedKeys)
                == call.arguments.serializedBytes(options: .sortedKeys)
        }

        /// Whether it can still ever match.
        func isLive(now: Date) -> Bool {
            if case .until(let end) = scope { return end > now }
            return true
        }
    }

    /// The remembered decisions still in force: with replicas sharing them, as the shared store holds them now
    /// (the list this process last saw when the store cannot be reached).
    public var remembered: [Remembered] {
        get async {
            let now = Date()
            return await currentRemembered(orLastSeen: true).filter { $0.isLive(now: now) }
        }
    }

    /// Remembers "allow `functionName`" for `scope` (only with exactly `arguments`, or only when the arguments
    /// meet `conditions`, when given), and saves it: in the state folder, or in the store replicas share.
    /// - Throws: ``ResolveKitError/Code/invalidConfiguration`` when the function is not registered, or
    ///   ``ResolveKitError/Code/stateStore`` when the state folder or the shared store cannot be written.
    @discardableResult
    public func remember(
        allow functionName: String, arguments: JSONValue? = nil,
        matching conditions: [PolicyApprover.ArgumentRule.Conditioned]? = nil, scope: Remembered.Scope,
        by decider: ToolCallDecision.Decider
    ) async throws(ResolveKitError) -> Remembered {
        guard let digest = schemaDigests[functionName] else {
            throw ResolveKitError(
                .invalidConfiguration, "Cannot remember a decision for \(functionName): no such function")
        }
        let decision = Remembered(
            id: String(UUID().uuidString.prefix(8)).lowercased(), functionName: functionName, arguments: arguments,
            conditions: conditions, scope: scope, schemaDigest: digest, createdAt: Date(),
            createdBy: decider.description)
        if let sharedRemembered {
            try await sharedRemembered.put(decision)
            // Decisions that ran out are forgotten here, as the file forgets them on each change.
            let now = Date()
            let stored = await currentRemembered(orLastSeen: false)
            let expired = stored.filter { !$0.isLive(now: now) }.map(\.id)
            if !expired.isEmpty { _ = try? await sharedRemembered.remove(ids: expired) }
        } else {
            try updateRemembered { $0.append(decision) }
        }
        broadcaster.send(.remembered(decision))
        return decision
    }

    /// Revokes a remembered decision.
    /// - Throws: ``ResolveKitError/Code/approvalNotPending`` when no decision has this id, or
    ///   ``ResolveKitError/Code/stateStore`` when the state folder or the shared store cannot be written.
    public func revoke(id: String) async throws(ResolveKitError) {
        var found = false
        if let sharedRemembered {
            found = try await sharedRemembered.remove(ids: [id]) > 0
            state.withLock { $0.remembered.removeAll { $0.id == id } }
        } else {
            try updateRemembered { list in
                found = list.contains { $0.id == id }
                list.removeAll { $0.id == id }
            }
        }
        guard found else { throw ResolveKitError(.approvalNotPending, "No remembered decision has the id \(id)") }
        broadcaster.send(.revoked(id: id))
    }

    /// The remembered decision that allows `call`, if any. With replicas sharing decisions, the store is read now
    /// (one round trip), so a decision remembered or revoked through another replica counts at once; when it cannot
    /// be read, nothing is approved from memory and the approver decides.
    package func rememberedDecision(for call: PendingToolCall, sessionID: String) async -> Remembered? {
        let now = Date()
        let digest = schemaDigests[call.functionName]
        return await currentRemembered(orLastSeen: false).first {
            $0.matches(call, sessionID: sessionID, schemaDigest: digest, now: now)
        }
    }

    /// `<state folder>/remembered-approvals.json`, or `nil` for in-memory state.
    package static func rememberedFile(in folder: String?) -> String? {
        folder.map { $0 + "/remembered-approvals.json" }
    }

    /// The SHA-256 of each function's parameter schema, as canonical JSON.
    static func schemaDigests(_ registry: ResolveKitRegistry?) -> [String: String] {
        var digests: [String: String] = [:]
        for entry in registry?.entries ?? [] {
            let schema = JSONValue.object(entry.function.resolveKitParametersSchema)
            digests[entry.name] = SHA256.hex(SHA256.digest(schema.serializedBytes(options: .sortedKeys)))
        }
        return digests
    }

    /// The shared store's decisions, read now and kept as the last seen (on failure the last seen, or none); the
    /// file's, as read once.
    private func currentRemembered(orLastSeen: Bool) async -> [Remembered] {
        guard let sharedRemembered else { return loadedRemembered() }
        do {
            let read = try await sharedRemembered.load()
            state.withLock { state in
                state.remembered = read
                state.rememberedLoaded = true
            }
            return read
        } catch {
            return orLastSeen ? state.withLock { $0.remembered } : []
        }
    }

    private func loadedRemembered() -> [Remembered] {
        if let loaded = state.withLock({ $0.rememberedLoaded ? $0.remembered : nil }) { return loaded }
        let read = rememberedFile.flatMap(RememberedFile.read) ?? []
        return state.withLock { state in
            if !state.rememberedLoaded {
                state.remembered = read
                state.rememberedLoaded = true
            }
            return state.remembered
        }
    }

    private func updateRemembered(_ change: (inout [Remembered]) -> Void) throws(ResolveKitError) {
        _ = loadedRemembered()
        let now = Date()
        let list = state.withLock { state in
            change(&state.remembered)
            state.remembered.removeAll { !$0.isLive(now: now) }
            return state.remembered
        }
        guard let rememberedFile else { return }
        do {
            try RememberedFile.write(list, to: rememberedFile)
        } catch {
            throw ResolveKitError(
                .stateStore, "Cannot save remembered approvals to \(rememberedFile): \(FileSystemReason.of(error))")
        }
    }
}
