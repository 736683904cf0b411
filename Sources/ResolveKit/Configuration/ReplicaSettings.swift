import Foundation

/// How a process shares user keys with other replicas through a Redis state store
/// (``ResolveKitConfiguration/StateLocation/redis(_:prefix:)``). Ignored with a local state location.
///
/// A replica serves a key only while it holds the key's lease: taken when the key's session starts, renewed every
/// third of ``leaseDuration``, given up when the session closes. A replica that dies leaves its leases to run out;
/// then another takes the key over (on the user's next request there, or through the host's sweep), delivers what
/// the journal holds, and answers a call that had started without a result as interrupted, never running it again.
public struct ReplicaSettings: Sendable, Hashable {
    /// This replica's name, as another replica's ``ResolveKitError/Code/keyOwnedElsewhere`` error names it
    /// (``KeyOwner/replica``): make it something a router can send a key's requests to, such as the replica's
    /// address or pod name. By default `<host name>:<process id>`. A `#` is replaced by `_` (it separates the
    /// name from the instance in a lease's holder id).
    public var name: String
    /// How long a key's lease runs without a renewal; 5 s by default. Renewals come every third of it, new calls
    /// stop two thirds into a lease that could not be renewed, and a dead replica's keys are free after at most
    /// this long.
    public var leaseDuration: Duration
    /// How often a host looks for keys whose lease ran out with calls unsettled (their replica died) and takes them
    /// over to deliver their results; 500 ms by default. `nil` never sweeps: such a key is taken over by its
    /// user's next request, and its running turn fails at the backend's deadline meanwhile.
    public var sweepInterval: Duration?
    /// How long one Redis command may take before it fails (and, for a write, is tried again while the lease
    /// lasts); 2 s by default.
    public var commandTimeout: Duration

    /// Creates settings.
    public init(
        name: String? = nil, leaseDuration: Duration = .seconds(5), sweepInterval: Duration? = .milliseconds(500),
        commandTimeout: Duration = .seconds(2)
    ) {
        let given = name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultName
        self.name = given.replacingOccurrences(of: "#", with: "_")
        self.leaseDuration = max(leaseDuration, .milliseconds(300))
        self.sweepInterval = sweepInterval
        self.commandTimeout = commandTimeout
    }

    /// `<host name>:<process id>`.
    static var defaultName: String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }
}
