/// Values a function needs from its host (allowed directories, a database handle, the calling user), looked up by
/// a type key: set on the runtime's configuration, or per session by a ``ResolveKitHost``, and read in a function
/// through its context, `context[AllowedRoots.self]`.
///
/// ```swift
/// enum CallingUser: ResolveKitDependencies.Key {
///     static let defaultValue = "anonymous"
/// }
///
/// var dependencies = ResolveKitDependencies()
/// dependencies[CallingUser.self] = "user-42"
/// ```
/// A key that was never set reads as its ``Key/defaultValue``, so a function always gets a value.
public struct ResolveKitDependencies: Sendable {
    /// A dependency's key: a type (often an empty enum) naming the value's type and its default.
    public protocol Key {
        /// The type of the value.
        associatedtype Value: Sendable
        /// What a function reads when the host set nothing for this key.
        static var defaultValue: Value { get }
    }

    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No values: every key reads as its default.
    public init() {}

    /// The value set for `key`, or its default; assigning `nil` removes it.
    public subscript<K: Key>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a value was set for `key`.
    public func contains<K: Key>(_ key: K.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// These values with `other`'s laid over them: a key set in both reads as `other`'s.
    public func merging(_ other: ResolveKitDependencies) -> ResolveKitDependencies {
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        return merged
    }
}
