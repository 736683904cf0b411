import Foundation
import Synchronization

/// The process-wide settings of the Linux function pack.
///
/// Call ``configure(allowedRoots:)`` (or ``configure(_:)``) once at start-up, before registering the pack:
///
/// ```swift
/// SystemFunctions.configure(allowedRoots: ["/var/log", "/srv/app"])
/// ```
///
/// Until then — and again after ``resetToEnvironment()`` — every call reads the colon-separated
/// `RK_ALLOWED_ROOTS` environment variable. With neither, `read_log_tail` and `list_directory` refuse every path.
/// All members are safe to call from any thread.
public enum SystemFunctions {
    private static let configured = Mutex<SystemFunctionsConfiguration?>(nil)

    /// Allows the file functions to read inside `allowedRoots`, keeping the default limits.
    /// - Parameter allowedRoots: absolute directories; an empty list refuses every path.
    public static func configure(allowedRoots: [String]) {
        configure(SystemFunctionsConfiguration(allowedRoots: allowedRoots))
    }

    /// Replaces the whole configuration: allowed roots and limits.
    /// - Parameter configuration: the settings every later call uses.
    public static func configure(_ configuration: SystemFunctionsConfiguration) {
        configured.withLock { $0 = configuration }
    }

    /// Forgets what ``configure(_:)`` set, so calls read `RK_ALLOWED_ROOTS` again.
    public static func resetToEnvironment() {
        configured.withLock { $0 = nil }
    }

    /// The configuration calls use now: the configured one, or else the one `RK_ALLOWED_ROOTS` describes.
    public static var configuration: SystemFunctionsConfiguration {
        configured.withLock { $0 } ?? .fromEnvironment(ProcessInfo.processInfo.environment)
    }

    /// The allowed roots calls use now, as configured or read from `RK_ALLOWED_ROOTS`.
    public static var allowedRoots: [String] { configuration.allowedRoots }
}
