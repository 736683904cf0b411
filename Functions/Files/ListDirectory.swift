import Glibc
public import ResolveKitCore

/// Lists a directory inside the host's allowed directories: each entry's name, type, size and modification time.
/// - Parameters:
///   - path: Absolute path of the directory; it must resolve inside one of the allowed root directories.
///   - includeHidden: Whether to include entries whose names start with a dot.
// @ResolveKit(name: "list_directory", timeout: 120, requiresApproval: true)
public struct ListDirectory: ResolveKitFunction {
    /// Creates the function; its roots and limits come from each call's context.
    public init() {}

    /// Lists `path`, sorted by name and cut at ``SystemFunctionsConfiguration/maxDirectoryEntries``.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` for a path that is relative, contains `..`,
    ///   resolves outside the allowed roots, or is not a directory; ``ResolveKitFunctionError/executionFailed(_:)``
    ///   when no root is configured or the directory cannot be read.
    public func perform(path: String, includeHidden: Bool = true, context: ResolveKitFunctionContext) async throws -> DirectoryListing {
        let settings = context[SystemFunctionsConfiguration.self]
        let opened = try PathConfinement(roots: settings.allowedRoots).open(path, as: .directory)
        guard let directory = fdopendir(opened.descriptor) else {
            let error = SystemCallError.current("fdopendir", opened.path)
            close(opened.descriptor)
            throw ResolveKitFunctionError.hostFailure(error, hint: "Check that the host process may read it.")
        }
        defer { closedir(directory) }
        // Names first (cheap), then `fstatat` only for the entries that will be returned.
        var names: [String] = []
        while let record = readdir(directory) {
            let name = withUnsafeBytes(of: record.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
            names.append(name)
        }
        names.sort()
        let limit = settings.maxDirectoryEntries
        let entries = names.prefix(limit).compactMap { name -> DirectoryEntry? in
            var info = stat()
            // An entry removed between readdir and fstatat is simply left out.
            guard fstatat(dirfd(directory), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return DirectoryEntry(
                name: name, type: Self.type(of: info.st_mode), sizeBytes: Int(info.st_size),
                modified: Self.utcTimestamp(info.st_mtim.tv_sec))
        }
        return DirectoryListing(
            path: opened.path, entries: entries, totalEntries: names.count, truncated: names.count > limit)
    }

    static func type(of mode: mode_t) -> EntryType {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        default: .unknown
        }
    }

    /// `2026-11-22T03:04:05Z` for a Unix time.
    static func utcTimestamp(_ seconds: time_t) -> String {
        var time = seconds
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "1970-01-01T00:00:00Z" }
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1) + "-" + pad(parts.tm_mday) + "T"
            + pad(parts.tm_hour) + ":" + pad(parts.tm_min) + ":" + pad(parts.tm_sec) + "Z"
    }
}
