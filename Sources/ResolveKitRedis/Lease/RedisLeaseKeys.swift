import ResolveKitCore

/// The Redis keys of one user key, all under one hash tag so every script touches a single slot (and the same
/// code runs on Redis Cluster).
///
/// The tag is `{<prefix>:<SHA-256 of the user key, hex>}`: the user key never appears in a key name (it may be an
/// e-mail address), as the file store names its folders by digest. The data model:
///
/// | Key | Type | Holds |
/// | --- | --- | --- |
/// | `{…}:lease` | string with `PX` | `<token>:<holder>` while a replica holds the key; gone when it expired |
/// | `{…}:fence` | integer, no expiry | the fencing token of the latest acquisition (`INCR`ed on each) |
/// | `{…}:journal` | hash | call id → the call's journal entry, one JSON line |
/// | `{…}:undelivered` | set | call ids whose result the backend has not acknowledged |
/// | `{…}:state` | hash | `session`, `cursor`, `device_id` and other fields; `user_key` (set on acquisition) |
///
/// What belongs to the app rather than a user key (remembered approvals) is under the tag `{<prefix>}`
/// (``RedisLeaseStore/appKey(_:)``), which the sweep's pattern never matches.
public struct RedisLeaseKeys: Sendable, Hashable {
    /// The prefix (one per app), e.g. `rk:myapp`.
    public let prefix: String
    /// The hash tag with its braces, e.g. `{rk:myapp:5e88…}`.
    public let tag: String

    /// The keys of `userKey` under `prefix`.
    public init(prefix: String, userKey: String) {
        self.prefix = prefix
        self.tag = "{\(prefix):\(SHA256.hexDigest(userKey))}"
    }

    /// The lease: `<token>:<holder>`, with the lease's expiry.
    public var lease: String { tag + ":lease" }
    /// The fencing token counter.
    public var fence: String { tag + ":fence" }
    /// The call journal.
    public var journal: String { tag + ":journal" }
    /// The call ids with undelivered results.
    public var undelivered: String { tag + ":undelivered" }
    /// Session, cursor, device id, the user key.
    public var state: String { tag + ":state" }
    /// Every key, in the order the read script takes them.
    public var all: [String] { [lease, fence, journal, undelivered, state] }

    /// The Redis Cluster slot of `key`: CRC16 (XMODEM) of its hash tag (the text between the first `{` and the next
    /// `}`, when not empty) or of the whole key, modulo 16384.
    public static func slot(of key: String) -> Int {
        var bytes = Array(key.utf8)
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")),
            let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
        {
            bytes = Array(bytes[(open + 1)..<close])
        }
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return Int(crc) % 16384
    }
}
