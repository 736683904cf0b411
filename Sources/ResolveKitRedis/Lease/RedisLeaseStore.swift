/// Leases, fenced writes and reads of per-user state in Redis, each one script on one slot (``RedisLeaseKeys``).
///
/// Ownership: a replica serves a user key only while it holds the key's lease (``acquire(_:holder:duration:)``,
/// `SET NX PX` plus an `INCR`ed fencing token), renews it before it runs out (``renew(_:)``, only the holder can),
/// and writes only with its token (``write(_:token:_:)``): once another replica took the lease, the token moved on
/// and the old holder's writes are refused, so a paused or partitioned replica cannot write after the new owner
/// started. Holder ids must be unique per process (host, pid and a random part): a holder that asks again for a
/// lease it holds gets the same token back.
public struct RedisLeaseStore: Sendable {
    /// The client.
    public let client: RedisClient
    /// The key prefix, one per app, e.g. `rk:myapp`.
    public let prefix: String

    /// Creates a store on `client` under `prefix`.
    public init(client: RedisClient, prefix: String) {
        self.client = client
        self.prefix = prefix
    }

    /// The keys of `userKey`.
    public func keys(_ userKey: String) -> RedisLeaseKeys { RedisLeaseKeys(prefix: prefix, userKey: userKey) }

    /// A key of the app rather than of a user key, e.g. `{rk:myapp}:approvals`: its tag is the prefix alone, so the
    /// sweep never takes it for a user's.
    public func appKey(_ name: String) -> String { "{\(prefix)}:\(name)" }

    /// Takes `userKey`'s lease for `duration`, or extends it when `holder` already has it.
    ///
    /// - Returns: The grant with its fencing token.
    /// - Throws: ``RedisError`` with ``RedisError/Code/leaseHeld`` naming the holder and its remaining time when
    ///   another holder has it; connection failures as for ``RedisClient/send(_:)``.
    public func acquire(_ userKey: String, holder: String, duration: Duration) async throws(RedisError)
        -> RedisLeaseGrant
    {
        let keys = keys(userKey)
        let reply = try await client.evaluate(
            RedisLeaseScripts.acquire, keys: [keys.lease, keys.fence, keys.state],
            arguments: [holder, String(Self.milliseconds(duration)), userKey])
        guard let items = reply.elements, items.count >= 2, let taken = items[0].integer, let token = items[1].integer
        else { throw unexpected(reply, from: "lease-acquire") }
        if taken == 1 { return RedisLeaseGrant(userKey: userKey, holder: holder, token: token, duration: duration) }
        var error = RedisError(
            .leaseHeld,
            "The lease of this user key is held by \(items.count > 2 ? items[2].string ?? "?" : "?"); route the "
                + "request to that replica or retry when the lease ends")
        error.holder = items.count > 2 ? items[2].string : nil
        error.remaining = items.count > 3 ? items[3].integer.map { .milliseconds(max($0, 0)) } : nil
        error.currentToken = token
        throw error
    }

    /// Extends the lease of `grant` by its duration from now, or takes it back with the same token when it ran out
    /// and no other holder took it since.
    ///
    /// - Throws: ``RedisError`` with ``RedisError/Code/leaseLost`` (naming the holder now, if any) when the lease
    ///   expired or another holder took it: stop serving the key.
    public func renew(_ grant: RedisLeaseGrant) async throws(RedisError) {
        let keys = keys(grant.userKey)
        let reply = try await client.evaluate(
            RedisLeaseScripts.renew, keys: [keys.lease, keys.fence],
            arguments: [grant.holder, String(grant.token), String(Self.milliseconds(grant.duration))])
        if reply.integer == 1, reply.string == nil { return }
        guard let current = reply.string else { throw unexpected(reply, from: "lease-renew") }
        throw Self.lost(current)
    }

    /// Gives the lease of `grant` up, so another replica may take it at once.
    ///
    /// - Returns: Whether it was still held by `grant` (false: it had expired or been taken).
    @discardableResult
    public func release(_ grant: RedisLeaseGrant) async throws(RedisError) -> Bool {
        let reply = try await client.evaluate(
            RedisLeaseScripts.release, keys: [keys(grant.userKey).lease],
            arguments: [grant.holder, String(grant.token)])
        return reply.integer == 1
    }

    /// Applies `change` when `token` is still `userKey`'s current fencing token; otherwise changes nothing.
    ///
    /// - Throws: ``RedisError`` with ``RedisError/Code/fencedOut`` and ``RedisError/currentToken`` when another
    ///   holder took the lease since; connection failures as for ``RedisClient/send(_:)`` (a fenced write that may
    ///   have executed can be sent again: it sets values, it does not add to them).
    public func write(_ userKey: String, token: Int64, _ change: RedisStateChange) async throws(RedisError) {
        guard !change.isEmpty else { return }
        let keys = keys(userKey)
        do {
            _ = try await client.evaluate(
                RedisLeaseScripts.fencedWrite,
                keys: [keys.fence, keys.journal, keys.undelivered, keys.state],
                arguments: [String(token)] + change.arguments)
        } catch  where error.serverPrefix == "FENCED" {
            let current = Int64(error.message.split(separator: " ").last ?? "")
            var fenced = RedisError(
                .fencedOut,
                "The write carried fencing token \(token) but the current token is \(current.map(String.init) ?? "?"): "
                    + "another replica took this user key's lease; stop serving it")
            fenced.currentToken = current
            throw fenced
        }
    }

    /// Reads everything stored for `userKey` at one instant.
    public func read(_ userKey: String) async throws(RedisError) -> RedisStoredState {
        let reply = try await client.evaluate(RedisLeaseScripts.read, keys: keys(userKey).all, arguments: [])
        guard let items = reply.elements, items.count == 6, let lease = items[0].string,
            let remaining = items[1].integer, let token = items[2].integer, let journal = items[3].elements,
            let undelivered = items[4].elements, let fields = items[5].elements
        else { throw unexpected(reply, from: "state-read") }
        let holder = lease.isEmpty ? nil : lease.split(separator: ":", maxSplits: 1).last.map(String.init)
        return RedisStoredState(
            holder: holder, token: token, leaseRemaining: holder == nil ? nil : .milliseconds(max(remaining, 0)),
            journal: Self.dictionary(journal), undelivered: Set(undelivered.compactMap(\.string)),
            fields: Self.dictionary(fields))
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return max(1, parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
    }

    static func dictionary(_ flat: [RESPValue]) -> [String: String] {
        var result: [String: String] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            if let key = flat[index].string, let value = flat[index + 1].string { result[key] = value }
        }
        return result
    }

    static func lost(_ current: String) -> RedisError {
        let holder = current.isEmpty ? nil : current.split(separator: ":", maxSplits: 1).last.map(String.init)
        var error = RedisError(
            .leaseLost,
            holder.map { "The lease was taken by \($0); stop serving this user key" }
                ?? "The lease ran out and another holder took it since; stop serving this user key")
        error.holder = holder
        return error
    }

    private func unexpected(_ reply: RESPValue, from script: String) -> RedisError {
        RedisError(.protocolViolation, "The \(script) script answered an unexpected shape: \(reply)")
    }
}
