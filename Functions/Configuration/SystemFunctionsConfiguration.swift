/// What the file-reading functions may touch and how much they may return.
///
/// `read_log_tail` and `list_directory` only open paths that resolve (after following every symbolic link) to an
/// allowed root or to something inside one. With no allowed root they refuse every path.
public struct SystemFunctionsConfiguration: Sendable, Hashable {
    /// The environment variable read when the host set no configuration in the dependencies:
    /// a colon-separated list of absolute directories, such as `/var/log:/srv/app/logs`.
    public static let allowedRootsEnvironmentVariable = "RK_ALLOWED_ROOTS"

    /// Absolute directories the file functions may read inside. Each is resolved with `realpath` when used, so a
    /// root that is itself a symbolic link is followed once; roots that do not exist are ignored.
    public var allowedRoots: [String]
    /// The most lines `read_log_tail` returns (callers may ask for fewer). Default 1000, which its schema's
    /// `maximum` also says: a model is never offered more.
    public var maxLogLines: Int
    /// The most bytes `read_log_tail` reads, counted back from the end of the file. Default 256 KiB.
    public var maxLogBytes: Int
    /// The most entries `list_directory` returns; longer listings are cut and marked truncated. Default 500.
    public var maxDirectoryEntries: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - allowedRoots: absolute directories the file functions may read inside; empty refuses every path.
    ///   - maxLogLines: the most lines `read_log_tail` returns (1 to 1000).
    ///   - maxLogBytes: the most bytes `read_log_tail` reads from the end of a file (at least 1).
    ///   - maxDirectoryEntries: the most entries `list_directory` returns (at least 1).
    public init(
        allowedRoots: [String],
        maxLogLines: Int = 1000,
        maxLogBytes: Int = 256 * 1024,
        maxDirectoryEntries: Int = 500
    ) {
        self.allowedRoots = allowedRoots
        self.maxLogLines = min(1000, max(1, maxLogLines))
        self.maxLogBytes = max(1, maxLogBytes)
        self.maxDirectoryEntries = max(1, maxDirectoryEntries)
    }

    /// The configuration described by `RK_ALLOWED_ROOTS` in `environment`, with the default limits.
    ///
    /// Empty items and relative paths in the variable are ignored, so `RK_ALLOWED_ROOTS=` allows nothing.
    /// - Parameter environment: the variables to read, usually `ProcessInfo.processInfo.environment`.
    public static func fromEnvironment(_ environment: [String: String]) -> Self {
        let value = environment[allowedRootsEnvironmentVariable] ?? ""
        let roots = value.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return Self(allowedRoots: roots)
    }
}
