/// The package's version: what the runtime reports to the backend as its SDK version, and what every executable
/// prints for `--version`.
package enum ResolveKitVersion {
    /// The current version; a 1.x version passes the backend's compatibility gate.
    package static let current = "1.0.0"
}
