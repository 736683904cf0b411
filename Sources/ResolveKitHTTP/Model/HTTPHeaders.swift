/// Header fields in order, with case-insensitive lookup. Names keep the spelling they were added with.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as added.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates headers from `fields`, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name-value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Makes room for `count` fields, so adding up to that many allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field; an existing field of the same name stays.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` (any case) with one field, or removes them when `value` is `nil`.
    public mutating func replaceOrAdd(name: String, value: String?) {
        remove(name: name)
        if let value { add(name: name, value: value) }
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// The first value of the field named `name` (any case), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the fields named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(name: String) -> Bool { self[name] != nil }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Whether two field names are the same in any case. Names are ASCII tokens (RFC 9110 §5.1): they are compared
    /// byte by byte, because a lowercased copy of a name longer than 15 bytes allocates. Anything else is compared
    /// lowercased.
    static func sameName(_ first: String, _ second: String) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        var left = first.utf8.makeIterator()
        var right = second.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case (let x?, let y?) where x < 0x80 && y < 0x80:
                // An ASCII character lowercases to one: a difference here is a difference of the whole names.
                guard folded(x) == folded(y) else { return false }
            case (nil, let y?) where y < 0x80, (let y?, nil) where y < 0x80:
                return false
            default:
                return first.lowercased() == second.lowercased()
            }
        }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields as `name: value` lines.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}
