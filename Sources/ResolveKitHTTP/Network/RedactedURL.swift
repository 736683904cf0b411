/// A URL as it may be logged: the user info (`user:password@`) and the fragment are dropped, and every query value
/// is replaced by `…` except those of ``visibleQueryNames``, which name no secret. Pure.
public enum RedactedURL {
    /// Query parameters whose values are shown: the event stream's `cursor` and the protocol's paging and locale.
    public static let visibleQueryNames: Set<String> = ["cursor", "locale", "limit", "direction", "before", "after"]

    /// `url` without secrets. A text that is no `scheme://` URL is shown as `<unparsable URL>`.
    public static func redact(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return "<unparsable URL>" }
        let scheme = url[..<schemeEnd.lowerBound]
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let tail = rest[authorityEnd...]
        guard let mark = tail.firstIndex(of: "?") else { return "\(scheme)://\(authority)\(tail)" }
        let query = tail[tail.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
            pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return String(pair) }
            return visibleQueryNames.contains(parts[0].lowercased()) ? String(pair) : "\(parts[0])=…"
        }
        return "\(scheme)://\(authority)\(tail[..<mark])?\(query.joined(separator: "&"))"
    }
}
