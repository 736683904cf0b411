import Foundation

/// The rules that keep a path inside a root, shared by the Linux function pack (which opens files) and approval
/// policies (which decide on a path argument): a path must be absolute, without NUL bytes or `..` components;
/// symbolic links are resolved; and it is inside a root only component by component, so `/srv/root2` is not
/// inside `/srv/root`.
package enum PathConfinementRules {
    /// Why a path cannot name a confined place at all, whatever the root.
    package enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// Empty, or not starting with `/`.
        case notAbsolute
        /// It holds a NUL byte, which the kernel would cut the path at.
        case nulByte
        /// It has a `..` component, which could climb out of any root.
        case parentStep

        /// `it is not an absolute path`, for messages such as "below needs …, but it is not an absolute path".
        package var description: String {
            switch self {
            case .notAbsolute: "it is not an absolute path"
            case .nulByte: "it contains a NUL byte"
            case .parentStep: "it contains a \"..\" component"
            }
        }
    }

    /// The non-empty components of `path`: `/var//log/` gives `["var", "log"]`.
    package static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Whether `path` is `root` or lies below it, comparing whole components. Both must be absolute and resolved.
    package static func isInside(_ path: String, root: String) -> Bool {
        let rootParts = components(root)
        let pathParts = components(path)
        return pathParts.count >= rootParts.count && zip(rootParts, pathParts).allSatisfy { $0 == $1 }
    }

    /// Why `requested` cannot name a confined path at all, or `nil` when its form is acceptable.
    package static func refusal(_ requested: String) -> Refusal? {
        if requested.isEmpty || !requested.hasPrefix("/") { return .notAbsolute }
        if requested.utf8.contains(0) { return .nulByte }
        if components(requested).contains("..") { return .parentStep }
        return nil
    }

    /// `realpath(3)`: `path` with every symbolic link, `.` and `..` resolved, or `nil` when it does not exist or
    /// cannot be resolved.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `requested` lies at or below `root` once both are resolved. A path that does not exist yet is
    /// judged by its deepest existing ancestor, resolved, plus the components that follow, so a symbolic link in
    /// a parent folder cannot carry a new name out of the root; a dangling symbolic link on the way is never below.
    /// - Parameters:
    ///   - resolve: `realpath`, injected for tests; `nil` for a path that does not exist.
    ///   - isSymbolicLink: whether a path that `resolve` could not resolve is itself a (dangling) symbolic link.
    package static func isBelow(
        _ requested: String, root: String, resolve: (String) -> String? = PathConfinementRules.realPath,
        isSymbolicLink: (String) -> Bool = PathConfinementRules.isSymbolicLink
    ) -> Bool {
        guard refusal(requested) == nil, refusal(root) == nil else { return false }
        guard let path = resolvedAllowingMissing(requested, resolve: resolve, isSymbolicLink: isSymbolicLink) else {
            return false
        }
        return isInside(path, root: resolve(root) ?? root)
    }

    /// `requested` resolved as far as it exists, then the rest as written (without `.` steps); `nil` when one of
    /// the steps that do not resolve is a symbolic link, whose target the comparison could not see.
    static func resolvedAllowingMissing(
        _ requested: String, resolve: (String) -> String?, isSymbolicLink: (String) -> Bool
    ) -> String? {
        var existing = components(requested).filter { $0 != "." }
        var missing: [Substring] = []
        while true {
            let candidate = "/" + existing.joined(separator: "/")
            if let resolved = resolve(candidate) {
                guard !missing.isEmpty else { return resolved }
                return (resolved == "/" ? "" : resolved) + "/" + missing.joined(separator: "/")
            }
            guard let last = existing.popLast() else { return nil }
            if isSymbolicLink(candidate) { return nil }
            missing.insert(last, at: 0)
        }
    }

    /// Whether `path` itself (not what it points to) is a symbolic link.
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
