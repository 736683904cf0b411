public import ResolveKitCore
import Foundation

/// The pack's settings are a dependency: each runtime (or each session of a host) sets its own, and the file
/// functions read them from their call's context.
extension SystemFunctionsConfiguration: ResolveKitDependencies.Key {
    /// With nothing set, the roots of the colon-separated `RK_ALLOWED_ROOTS` environment variable (none when it
    /// is unset, so every path is refused) and the default limits.
    public static var defaultValue: SystemFunctionsConfiguration {
        .fromEnvironment(ProcessInfo.processInfo.environment)
    }
}

extension ResolveKitDependencies {
    /// The Linux pack's settings: allowed roots and limits.
    ///
    /// ```swift
    /// var dependencies = ResolveKitDependencies()
    /// dependencies.systemFunctions = SystemFunctionsConfiguration(allowedRoots: ["/var/log"])
    /// ```
    public var systemFunctions: SystemFunctionsConfiguration {
        get { self[SystemFunctionsConfiguration.self] }
        set { self[SystemFunctionsConfiguration.self] = newValue }
    }
}
