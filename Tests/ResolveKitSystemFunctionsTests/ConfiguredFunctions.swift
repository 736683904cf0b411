import ResolveKitCore

@testable import ResolveKitSystemFunctions

extension ResolveKitFunctionContext {
    /// A call's context whose dependencies hold `settings`, as a runtime configured with them makes it.
    static func configured(_ settings: SystemFunctionsConfiguration) -> ResolveKitFunctionContext {
        var dependencies = ResolveKitDependencies()
        dependencies.systemFunctions = settings
        return ResolveKitFunctionContext(sessionID: "s", requestID: "r", dependencies: dependencies)
    }
}

/// `read_log_tail` called with one configuration in its context.
struct ConfiguredReadLogTail {
    let settings: SystemFunctionsConfiguration

    func perform(path: String, lines: Int = 50) async throws -> LogTail {
        try await ReadLogTail().perform(path: path, lines: lines, context: .configured(settings))
    }
}

/// `list_directory` called with one configuration in its context.
struct ConfiguredListDirectory {
    let settings: SystemFunctionsConfiguration

    func perform(path: String, includeHidden: Bool = true) async throws -> DirectoryListing {
        try await ListDirectory().perform(path: path, includeHidden: includeHidden, context: .configured(settings))
    }
}
