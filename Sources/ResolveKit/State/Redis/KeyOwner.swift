/// Who holds a user key when this process was refused it: the ``ResolveKitError/underlying`` cause of
/// ``ResolveKitError/Code/keyOwnedElsewhere`` (read it with ``ResolveKitError/keyOwner``), so a service can route
/// the request to that replica.
public struct KeyOwner: Error, Sendable, Hashable, CustomStringConvertible {
    /// The owning replica's name (its ``ReplicaSettings/name``): send the key's requests there.
    public var replica: String
    /// The lease's holder id: the replica's name and the instance holding the key (`name#1a2b3c4d`).
    public var holder: String
    /// How long the owner's lease still runs without a renewal, when known: a replica that died frees the key
    /// after this long.
    public var leaseRemaining: Duration?

    /// An owner named by its holder id; the replica is the part before the last `#`.
    public init(holder: String, leaseRemaining: Duration? = nil) {
        self.holder = holder
        self.replica = holder.lastIndex(of: "#").map { String(holder[..<$0]) } ?? holder
        self.leaseRemaining = leaseRemaining
    }

    /// `replica a (lease ends in 4.2 seconds)`.
    public var description: String {
        "replica \(replica)" + (leaseRemaining.map { " (lease ends in \($0))" } ?? "")
    }
}

extension ResolveKitError {
    /// For ``Code/keyOwnedElsewhere``: the replica that owns the key, when it is known.
    public var keyOwner: KeyOwner? { underlying as? KeyOwner }
}
