import Glibc
public import ResolveKitCore

/// Returns the last lines of a text file (such as a log) inside the host's allowed directories.
/// - Parameters:
///   - path: Absolute path of the file; it must resolve inside one of the allowed root directories.
///   - lines: How many lines to return from the end of the file, 1 to 1000.
///     - Minimum: 1
///     - Maximum: 1000
// @ResolveKit(name: "read_log_tail", timeout: 120, requiresApproval: true)
public struct ReadLogTail: ResolveKitFunction {
    /// Creates the function; its roots and limits come from each call's context.
    public init() {}

    /// Reads at most ``SystemFunctionsConfiguration/maxLogBytes`` from the end of the file at `path`.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` for a line count out of range or a path that is
    ///   relative, contains `..`, resolves outside the allowed roots, or is not a regular file;
    ///   ``ResolveKitFunctionError/executionFailed(_:)`` when no root is configured or the file cannot be read.
    public func perform(path: String, lines: Int = 50, context: ResolveKitFunctionContext) async throws -> LogTail {
        let settings = context[SystemFunctionsConfiguration.self]
        guard (1...settings.maxLogLines).contains(lines) else {
            throw ResolveKitFunctionError.invalidArguments(
                "lines must be between 1 and \(settings.maxLogLines); \(lines) was given.")
        }
        let opened = try PathConfinement(roots: settings.allowedRoots).open(path, as: .regularFile)
        defer { close(opened.descriptor) }
        return try TailReader.tail(
            of: opened.descriptor, path: opened.path, size: Int(opened.info.st_size), lineCount: lines,
            byteLimit: settings.maxLogBytes)
    }
}
