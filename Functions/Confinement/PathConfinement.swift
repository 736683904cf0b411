import Glibc
import ResolveKitCore

/// Keeps file access inside the allowed roots.
///
/// The algorithm, in order:
/// 1. With no root configured, refuse everything and say how to configure one.
/// 2. Resolve each root with `realpath`; roots that do not exist or are not directories are dropped.
/// 3. Refuse a requested path that is empty, relative, contains a NUL byte, or has a `..` component.
/// 4. Resolve it with `realpath`, which follows every symbolic link in every component.
/// 5. Accept it only if the resolved path equals a resolved root or lies below one, compared component by
///    component (so `/srv/root2` is not inside `/srv/root`).
/// 6. `lstat` the resolved path and refuse the wrong kind of object before opening it (no FIFO or device is opened).
/// 7. Open it with `O_NOFOLLOW`, `fstat` the descriptor, and check again the path the kernel reports for the open
///    descriptor (`/proc/self/fd/N`), so a path swapped for a symbolic link after step 4 is still refused.
struct PathConfinement: Sendable {
    /// The kind of object a caller is about to read.
    enum Kind: Sendable {
        /// A regular file, opened for reading.
        case regularFile
        /// A directory, opened for listing.
        case directory
    }

    /// The roots as configured, not yet resolved.
    var roots: [String]

    /// Resolves `requested` and opens it, refusing anything outside the roots or of the wrong kind.
    /// - Returns: the open descriptor (the caller closes it), the resolved path and its `stat`.
    /// - Throws: `invalidArguments` for a path the agent should not have asked for, `executionFailed` when the host
    ///   is not configured or the file cannot be read.
    func open(_ requested: String, as kind: Kind) throws -> (descriptor: Int32, path: String, info: stat) {
        let resolvedRoots = try resolvedRoots()
        let path = try resolve(requested, within: resolvedRoots)
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure(.current("lstat", path)) }
        try check(info, of: path, is: kind)
        let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (kind == .directory ? O_DIRECTORY : 0)
        let descriptor = Glibc.open(path, flags)
        guard descriptor >= 0 else { throw failure(.current("open", path)) }
        do {
            guard fstat(descriptor, &info) == 0 else { throw failure(.current("fstat", path)) }
            try check(info, of: path, is: kind)
            let opened = try PathRules.openedPath(of: descriptor)
            guard resolvedRoots.contains(where: { PathRules.isInside(opened, root: $0) }) else {
                throw ResolveKitFunctionError.invalidArguments(
                    "\(requested) changed while it was being opened and now leads outside the allowed roots.")
            }
            return (descriptor, opened, info)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The roots that exist, resolved; throws when none is configured or none exists.
    func resolvedRoots() throws -> [String] {
        guard !roots.isEmpty else {
            throw ResolveKitFunctionError.executionFailed(
                "No allowed root directory is configured, so no file may be read. The host program must set "
                    + "dependencies.systemFunctions = SystemFunctionsConfiguration(allowedRoots: [\"/var/log\"]) "
                    + "in its configuration or set the environment variable "
                    + "\(SystemFunctionsConfiguration.allowedRootsEnvironmentVariable) (colon-separated, e.g. "
                    + "/var/log:/srv/app).")
        }
        let resolved = roots.compactMap { root -> String? in
            guard root.hasPrefix("/"), let path = try? PathRules.realPath(root) else { return nil }
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? path : nil
        }
        guard !resolved.isEmpty else {
            throw ResolveKitFunctionError.executionFailed(
                "None of the allowed roots (\(roots.joined(separator: ", "))) is an existing directory; the host "
                    + "must configure roots that exist.")
        }
        return resolved
    }

    /// Steps 3–5: the resolved form of `requested`, if it lies inside one of `resolvedRoots`.
    func resolve(_ requested: String, within resolvedRoots: [String]) throws -> String {
        let allowed = resolvedRoots.joined(separator: ", ")
        switch PathConfinementRules.refusal(requested) {
        case .notAbsolute, .nulByte:
            throw ResolveKitFunctionError.invalidArguments(
                "Give an absolute path inside one of the allowed roots: \(allowed).")
        case .parentStep:
            throw ResolveKitFunctionError.invalidArguments(
                "\(requested) contains \"..\"; give the path without parent-directory steps, inside: \(allowed).")
        case nil:
            break
        }
        let resolved: String
        do {
            resolved = try PathRules.realPath(requested)
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR {
                throw ResolveKitFunctionError.invalidArguments(
                    "\(requested) does not exist. List a directory inside \(allowed) to find the right name.")
            }
            throw failure(error)
        }
        guard resolvedRoots.contains(where: { PathRules.isInside(resolved, root: $0) }) else {
            throw ResolveKitFunctionError.invalidArguments(
                "\(requested) resolves (after following symbolic links) to a place outside the allowed roots "
                    + "(\(allowed)); only paths inside them may be read.")
        }
        return resolved
    }

    private func check(_ info: stat, of path: String, is kind: Kind) throws {
        let type = info.st_mode & S_IFMT
        switch kind {
        case .regularFile where type != S_IFREG:
            throw ResolveKitFunctionError.invalidArguments(
                "\(path) is \(Self.describe(type)), not a regular file; only regular text files can be read.")
        case .directory where type != S_IFDIR:
            throw ResolveKitFunctionError.invalidArguments(
                "\(path) is \(Self.describe(type)), not a directory.")
        default:
            return
        }
    }

    private func failure(_ error: SystemCallError) -> ResolveKitFunctionError {
        if error.code == ELOOP {
            return .invalidArguments("\(error.path) is or became a symbolic link loop or swap; it cannot be opened.")
        }
        return .hostFailure(error, hint: "Check that the host process may read it.")
    }

    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "an unknown kind of file"
        }
    }
}
