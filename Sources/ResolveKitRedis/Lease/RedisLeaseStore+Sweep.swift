extension RedisLeaseStore {
    /// One bounded pass of ``RedisLeaseStore/sweep(from:scanCalls:count:)``.
    public struct Sweep: Sendable, Hashable {
        /// User keys whose lease is gone while results wait undelivered: a replica should take them over.
        public var orphans: [String]
        /// Where the next pass goes on; `"0"` when the whole key space was scanned.
        public var cursor: String
    }

    /// Finds user keys with undelivered results and no live lease (their replica died), with `SCAN` over
    /// `{<prefix>:*}:undelivered`, bounded: at most `scanCalls` `SCAN` calls of `count` keys each, then one pipelined
    /// check of what they found.
    ///
    /// On Redis Cluster `SCAN` sees one node; sweep each primary.
    ///
    /// - Parameters:
    ///   - cursor: `"0"` to start, or the cursor a previous pass returned.
    ///   - scanCalls: The most `SCAN` calls in this pass.
    ///   - count: The `COUNT` hint of each call.
    public func sweep(from cursor: String = "0", scanCalls: Int = 10, count: Int = 100) async throws(RedisError)
        -> Sweep
    {
        var cursor = cursor
        var found: [String] = []
        let pattern = "{" + Self.escapeGlob(prefix) + ":*}:undelivered"
        for _ in 0..<max(1, scanCalls) {
            let reply = try await client.send(RedisCommand("SCAN", cursor, "MATCH", pattern, "COUNT", String(count)))
            guard let items = reply.elements, items.count == 2, let next = items[0].string,
                let keys = items[1].elements
            else { throw RedisError(.protocolViolation, "SCAN answered an unexpected shape: \(reply)") }
            found += keys.compactMap(\.string)
            cursor = next
            if cursor == "0" { break }
        }
        var orphans: [String] = []
        let tags = Array(Set(found.compactMap(Self.tag))).sorted()
        let checks = tags.flatMap { tag in
            [RedisCommand("EXISTS", tag + ":lease"), RedisCommand("HGET", tag + ":state", "user_key")]
        }
        let replies = try await client.pipeline(checks)
        for index in tags.indices {
            guard case .success(let exists) = replies[2 * index], exists.integer == 0,
                case .success(let userKey) = replies[2 * index + 1], let userKey = userKey.string
            else { continue }
            orphans.append(userKey)
        }
        return Sweep(orphans: orphans, cursor: cursor)
    }

    /// `{…}` of a key name.
    static func tag(_ key: String) -> String? {
        guard let close = key.firstIndex(of: "}"), key.first == "{" else { return nil }
        return String(key[...close])
    }

    /// `prefix` with `SCAN MATCH`'s special characters escaped.
    static func escapeGlob(_ text: String) -> String {
        var result = ""
        for character in text {
            if "*?[]\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
