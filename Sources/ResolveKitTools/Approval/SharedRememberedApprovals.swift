/// Where replicas of one app share remembered decisions (a Redis hash): read before each call it may approve, and
/// changed one decision at a time, so a decision remembered through any replica holds on every replica at once and
/// two replicas remembering at the same moment keep both.
package protocol SharedRememberedApprovals: Sendable {
    /// Every decision stored (live or not); a decision that no longer reads is left out.
    /// - Throws: ``ResolveKitError/Code/stateStore`` when the store cannot be reached.
    func load() async throws(ResolveKitError) -> [ToolApprovals.Remembered]
    /// Stores `decision` under its id.
    /// - Throws: ``ResolveKitError/Code/stateStore`` when the store cannot be reached.
    func put(_ decision: ToolApprovals.Remembered) async throws(ResolveKitError)
    /// Removes the decisions with these ids; returns how many were stored.
    /// - Throws: ``ResolveKitError/Code/stateStore`` when the store cannot be reached.
    func remove(ids: [String]) async throws(ResolveKitError) -> Int
}

extension ToolApprovals.Remembered {
    /// The decision as the remembered-approvals file and a shared store keep it.
    package var json: JSONObject { RememberedFile.encode(self) }

    /// A decision read back; `nil` when it does not read (a condition that no longer parses never approves).
    package init?(json: JSONObject) {
        guard let decision = RememberedFile.decode(json) else { return nil }
        self = decision
    }
}
