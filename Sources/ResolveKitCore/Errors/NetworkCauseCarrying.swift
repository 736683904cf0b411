/// An error that wraps the network's own account of a failure (a TLS certificate, a pin, a proxy): a
/// ``ResolveKitError`` made with it as its cause keeps that account as ``ResolveKitError/underlying``, so a caller
/// switches on one error type whatever layer the failure passed through.
package protocol NetworkCauseCarrying: Error {
    /// The network's error inside this one, or `nil` when the failure was not the network's.
    var networkCause: (any Error & Sendable)? { get }
}
