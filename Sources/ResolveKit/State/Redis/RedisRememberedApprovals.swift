import Foundation
import ResolveKitRedis

/// Remembered approvals shared by an app's replicas: one Redis hash, `{<prefix>}:approvals` (decision id → its JSON,
/// as `remembered-approvals.json` holds it). The app's, not a user key's: a decision remembered through any replica
/// approves matching calls of every user on every replica. Not fenced: each change is one `HSET` or `HDEL` of its
/// own decision, so replicas changing different decisions at once never undo each other.
struct RedisRememberedApprovals: SharedRememberedApprovals {
    let client: RedisClient
    let key: String

    init(leases: RedisLeaseStore) {
        client = leases.client
        key = leases.appKey("approvals")
    }

    func load() async throws(ResolveKitError) -> [ToolApprovals.Remembered] {
        let reply = try await send(RedisCommand("HGETALL", key), doing: "read the remembered approvals")
        let flat = reply.elements ?? []
        var decisions: [ToolApprovals.Remembered] = []
        for index in stride(from: 1, to: flat.count, by: 2) {
            guard let text = flat[index].string, let object = (try? JSONValue(parsing: text))?.objectValue,
                let decision = ToolApprovals.Remembered(json: object)
            else { continue }
            decisions.append(decision)
        }
        return decisions.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func put(_ decision: ToolApprovals.Remembered) async throws(ResolveKitError) {
        let json = JSONValue.object(decision.json).serialized(options: .sortedKeys)
        try await send(RedisCommand("HSET", key, decision.id, json), doing: "save a remembered approval")
    }

    func remove(ids: [String]) async throws(ResolveKitError) -> Int {
        guard !ids.isEmpty else { return 0 }
        let reply = try await send(
            RedisCommand("HDEL", arguments: [key] + ids), doing: "remove a remembered approval")
        return Int(reply.integer ?? 0)
    }

    @discardableResult
    private func send(_ command: RedisCommand, doing what: String) async throws(ResolveKitError) -> RESPValue {
        do {
            return try await client.send(command)
        } catch {
            throw ResolveKitError(.stateStore, "Cannot \(what) in Redis: \(error.description)", underlying: error)
        }
    }
}

extension ToolApprovals {
    /// The approvals of a runtime or host made with `configuration`: remembered decisions in its state folder, in
    /// memory, or (with a Redis state location) shared by every replica of the app.
    static func make(for configuration: ResolveKitConfiguration, registry: ResolveKitRegistry?) -> ToolApprovals {
        var shared: (any SharedRememberedApprovals)?
        if case .redis(let url, let prefix) = configuration.stateLocation,
            let leases = try? RedisConnections.leases(at: url, prefix: prefix, settings: configuration.replica)
        {
            shared = RedisRememberedApprovals(leases: leases)
        }
        return ToolApprovals(
            rememberedFile: ToolApprovals.rememberedFile(in: configuration.resolvedStateDirectory), registry: registry,
            shared: shared)
    }
}
