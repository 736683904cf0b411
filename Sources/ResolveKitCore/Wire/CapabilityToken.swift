package import Foundation

/// The session capability token (§2.2): a JWT whose payload is read, unverified, for its expiry and session.
///
/// Its ``description`` never contains the token itself, so it is safe to log.
package struct CapabilityToken: Sendable, Hashable, CustomStringConvertible {
    /// The token as issued; send it in `X-Resolvekit-Chat-Capability`. Never log it.
    package let rawValue: String
    /// The `exp` claim, when readable.
    package let expiresAt: Date?
    /// The `sid` claim (the session id), when readable.
    package let sessionID: String?

    /// Wraps a token and reads its claims; an unreadable payload leaves them `nil`.
    package init(_ rawValue: String) {
        self.rawValue = rawValue
        let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        let claims = parts.count == 3 ? Self.base64URLDecoded(parts[1]).flatMap { try? JSONValue(parsing: $0) } : nil
        expiresAt = claims?["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        sessionID = claims?["sid"]?.stringValue
    }

    /// Whether the token should be refreshed at `now`: it expires within `margin` (default 60 s, §2.2).
    package func needsRefresh(at now: Date, margin: TimeInterval = 60) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin
    }

    /// `CapabilityToken(session: …, expires: …)`, without the secret.
    package var description: String {
        "CapabilityToken(session: \(sessionID ?? "?"), expires: \(expiresAt.map(ISO8601Timestamp.format) ?? "?"))"
    }

    static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
