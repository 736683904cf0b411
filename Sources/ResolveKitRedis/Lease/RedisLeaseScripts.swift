/// The Lua scripts of leases and fenced writes. Each takes only keys of one ``RedisLeaseKeys`` (one hash tag, one
/// slot) and runs atomically on the server.
enum RedisLeaseScripts {
    /// KEYS: lease, fence, state. ARGV: holder, lease in ms, user key.
    /// Returns `{1, token}` when the caller holds the lease (taken now with a new token, or already its own and
    /// extended), or `{0, token, holder, remaining ms}` when someone else holds it.
    static let acquire = RedisScript(
        name: "lease-acquire",
        source: """
            local current = redis.call('GET', KEYS[1])
            if current then
              local sep = string.find(current, ':', 1, true)
              local token = tonumber(string.sub(current, 1, sep - 1))
              local holder = string.sub(current, sep + 1)
              if holder == ARGV[1] then
                redis.call('PEXPIRE', KEYS[1], ARGV[2])
                return {1, token}
              end
              return {0, token, holder, redis.call('PTTL', KEYS[1])}
            end
            local token = redis.call('INCR', KEYS[2])
            redis.call('SET', KEYS[1], token .. ':' .. ARGV[1], 'PX', ARGV[2])
            redis.call('HSET', KEYS[3], 'user_key', ARGV[3])
            return {1, token}
            """)

    /// KEYS: lease, fence. ARGV: holder, token, lease in ms. Returns 1 when extended, or the lease's value now (empty
    /// when it is gone and another holder took it since).
    ///
    /// A lease that ran out while nobody took it (the fence still holds the caller's token) is taken back with the
    /// same token: no other holder can have written in between, so the caller's view of the state is still the
    /// truth. A holder paused or cut off past its lease thus keeps the key when no replica wanted it.
    static let renew = RedisScript(
        name: "lease-renew",
        source: """
            local current = redis.call('GET', KEYS[1])
            if current == ARGV[2] .. ':' .. ARGV[1] then
              redis.call('PEXPIRE', KEYS[1], ARGV[3])
              return 1
            end
            if not current and tonumber(redis.call('GET', KEYS[2]) or '0') == tonumber(ARGV[2]) then
              redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[1], 'PX', ARGV[3])
              return 1
            end
            return current or ''
            """)

    /// KEYS: lease. ARGV: holder, token. Returns 1 when released, 0 when the lease was not the caller's.
    static let release = RedisScript(
        name: "lease-release",
        source: """
            if redis.call('GET', KEYS[1]) == ARGV[2] .. ':' .. ARGV[1] then
              redis.call('DEL', KEYS[1])
              return 1
            end
            return 0
            """)

    /// KEYS: fence, journal, undelivered, state. ARGV: token, then (operation, field, value) triples.
    /// Applies every operation when the token is the current one and returns it; otherwise changes nothing and
    /// answers the error `FENCED <current token>`. Operations: `J`/`j` put/remove a journal entry, `U`/`u` mark a
    /// call undelivered/delivered, `S`/`s` set/remove a state field, `X` remove the whole journal and undelivered
    /// set (before a compacted journal is written again).
    static let fencedWrite = RedisScript(
        name: "fenced-write",
        source: """
            local current = tonumber(redis.call('GET', KEYS[1]) or '0')
            if current == 0 or current ~= tonumber(ARGV[1]) then
              return redis.error_reply('FENCED ' .. current)
            end
            local targets = {J = 2, j = 2, U = 3, u = 3, S = 4, s = 4, X = 2}
            for i = 2, #ARGV, 3 do
              if targets[ARGV[i]] == nil or ARGV[i + 2] == nil then
                return redis.error_reply('BADOP operation ' .. tostring(ARGV[i]) .. ' at argument ' .. i)
              end
            end
            for i = 2, #ARGV, 3 do
              local op, key, field, value = ARGV[i], KEYS[targets[ARGV[i]]], ARGV[i + 1], ARGV[i + 2]
              if op == 'J' or op == 'S' then
                redis.call('HSET', key, field, value)
              elseif op == 'X' then
                redis.call('DEL', KEYS[2], KEYS[3])
              elseif op == 'U' then
                redis.call('SADD', key, field)
              elseif op == 'u' then
                redis.call('SREM', key, field)
              else
                redis.call('HDEL', key, field)
              end
            end
            return current
            """)

    /// KEYS: lease, fence, journal, undelivered, state. Returns the lease's value (empty when none), its remaining ms,
    /// the token, and the journal, undelivered set and state (hashes as flat arrays).
    static let read = RedisScript(
        name: "state-read",
        source: """
            return {
              redis.call('GET', KEYS[1]) or '', redis.call('PTTL', KEYS[1]), redis.call('GET', KEYS[2]) or '0',
              redis.call('HGETALL', KEYS[3]), redis.call('SMEMBERS', KEYS[4]), redis.call('HGETALL', KEYS[5])
            }
            """)
}
