/// The rules that keep a path inside a root, shared by the Linux function pack (which opens files) and approval
/// policies (which decide on a path argument): a path must be absolute, without NUL bytes or `..` components;
/// symbolic links are resolved; and it is inside a root only component by component, so `/srv/root2` is not
/// inside `/srv/root`.
package enum PathConfinementRules {
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
    package static func refusal(_ requested: String) -> String? {
        if requested.isEmpty || !requested.hasPrefix("/") { return "it is not an absolute path" }
        if requested.utf8.contains(0) { return "it contains a NUL byte" }
        if components(requested).contains("..") { return "it contains a \"..\" component" }
        return nil
    }

    /// Whether `requested` lies at or below `root` after both are resolved by `resolve` (`realpath`; `nil` for a
    /// path that does not exist, which is then compared as written).
    package static func isBelow(_ requested: String, root: String, resolve: (String) -> String?) -> Bool {
        guard refusal(requested) == nil, refusal(root) == nil else { return false }
        return isInside(resolve(requested) ?? requested, root: resolve(root) ?? root)
    }
}
