/// The W3C `tracestate`: up to 32 vendor entries (`key=value`) carried along a trace, most recently updated first.
///
/// Keys are `[a-z][a-z0-9_*/-]{0,255}` or `tenant@system` (`[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13}`);
/// values are 1–256 printable ASCII characters without `,` or `=` that do not end in a space.
public struct TraceState: Sendable, Hashable, CustomStringConvertible {
    /// One vendor's entry.
    public struct Entry: Sendable, Hashable {
        /// The vendor key, e.g. `congo` or `tenant@vendor`.
        public var key: String
        /// The vendor's opaque value.
        public var value: String

        /// Creates an entry; see ``TraceState/setValue(_:forKey:)`` for a checked one.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The most entries a `tracestate` may hold.
    public static let maxEntries = 32

    /// The entries, most recently updated first.
    public private(set) var entries: [Entry]

    /// An empty state.
    public init() {
        entries = []
    }

    /// Reads a `tracestate` header value (several header lines joined with `,`). Empty list members and spaces or
    /// tabs around members are allowed.
    /// - Throws: ``TraceContextError`` with code `invalid_tracestate`: a malformed key or value, a duplicate key,
    ///   or more than 32 entries. W3C Trace Context then drops the whole `tracestate`.
    public init(parsing header: String) throws(TraceContextError) {
        entries = []
        let bytes = Array(header.utf8)
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let member = bytes[start..<end].trimmingOptionalWhitespace()
            if !member.isEmpty {
                let entry = try Self.parseMember(member)
                guard !entries.contains(where: { $0.key == entry.key }) else {
                    throw Self.invalid("the key \(entry.key) appears twice", offset: member.startIndex)
                }
                entries.append(entry)
                guard entries.count <= Self.maxEntries else {
                    throw Self.invalid("more than \(Self.maxEntries) entries")
                }
            }
            start = end + 1
        }
    }

    /// Whether there are no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, or `nil`.
    public func value(forKey key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// Sets `key`'s value and moves the entry to the front, as a vendor does when its span is the caller; beyond 32
    /// entries the last one is removed.
    /// - Throws: ``TraceContextError`` when the key or value breaks the format.
    public mutating func setValue(_ value: String, forKey key: String) throws(TraceContextError) {
        let text = Array("\(key)=\(value)".utf8)
        let entry = try Self.parseMember(text[...])
        entries.removeAll { $0.key == key }
        entries.insert(entry, at: 0)
        if entries.count > Self.maxEntries { entries.removeLast() }
    }

    /// Removes `key`'s entry, if any.
    public mutating func removeValue(forKey key: String) {
        entries.removeAll { $0.key == key }
    }

    /// The header value: the entries joined with `,`.
    public var headerValue: String { entries.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }

    /// The header value.
    public var description: String { headerValue }

    private static func parseMember(_ member: ArraySlice<UInt8>) throws(TraceContextError) -> Entry {
        guard let equals = member.firstIndex(of: UInt8(ascii: "=")) else {
            throw invalid("a member has no '='", offset: member.startIndex)
        }
        try checkKey(member[member.startIndex..<equals])
        try checkValue(member[(equals + 1)...], after: equals)
        return Entry(
            key: String(decoding: member[..<equals], as: UTF8.self),
            value: String(decoding: member[(equals + 1)...], as: UTF8.self))
    }

    private static func checkKey(_ key: ArraySlice<UInt8>) throws(TraceContextError) {
        guard !key.isEmpty else { throw invalid("a key is empty", offset: key.startIndex) }
        let at = key.firstIndex(of: UInt8(ascii: "@"))
        let tenant = key[..<(at ?? key.endIndex)]
        // A simple key starts with a letter and has up to 256 bytes; a tenant starts with a letter or digit and has
        // up to 241, its system starts with a letter and has up to 14.
        try checkKeyPart(tenant, firstMayBeDigit: at != nil, maxLength: at == nil ? 256 : 241)
        if let at {
            try checkKeyPart(key[(at + 1)...], firstMayBeDigit: false, maxLength: 14)
        }
    }

    private static func checkKeyPart(
        _ part: ArraySlice<UInt8>, firstMayBeDigit: Bool, maxLength: Int
    ) throws(TraceContextError) {
        guard let first = part.first else { throw invalid("a key part is empty", offset: part.startIndex) }
        let isLetter = { (byte: UInt8) in byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard isLetter(first) || (firstMayBeDigit && isDigit(first)) else {
            throw invalid("a key must start with a lower-case letter", offset: part.startIndex)
        }
        for index in part.indices.dropFirst() {
            let byte = part[index]
            guard isLetter(byte) || isDigit(byte) || "_-*/".utf8.contains(byte) else {
                throw invalid("keys may hold only a-z, 0-9, _ - * / (and one @)", offset: index)
            }
        }
        guard part.count <= maxLength else {
            throw invalid("a key part is longer than \(maxLength) bytes", offset: part.startIndex + maxLength)
        }
    }

    private static func checkValue(_ value: ArraySlice<UInt8>, after equals: Int) throws(TraceContextError) {
        guard let last = value.last else { throw invalid("a value is empty", offset: equals + 1) }
        guard value.count <= 256 else { throw invalid("a value is longer than 256 bytes", offset: equals + 257) }
        for index in value.indices {
            let byte = value[index]
            guard byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: ","), byte != UInt8(ascii: "=") else {
                throw invalid("values are printable ASCII without ',' or '='", offset: index)
            }
        }
        guard last != UInt8(ascii: " ") else { throw invalid("a value ends in a space", offset: value.endIndex - 1) }
    }

    private static func invalid(_ message: String, offset: Int? = nil) -> TraceContextError {
        TraceContextError(code: .invalidTracestate, message: "tracestate: " + message, offset: offset)
    }
}
