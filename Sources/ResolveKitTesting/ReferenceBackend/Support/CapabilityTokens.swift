import Foundation
import ResolveKitCore

/// JWT-shaped tokens: `base64url(header).base64url(payload).signature` with the real claim sets.
///
/// No crypto library is available, so the signature is 32 random bytes and the backend verifies a token by
/// looking it up in its own table of issued tokens; the header and payload decode exactly like the real ones.
enum TokenFactory {
    static let header = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// A chat capability token with claims `sid, aid, iv, iat, nbf, exp` in that order.
    static func capabilityToken(_ claims: CapabilityClaims) -> String {
        let payload = WireJSON.object([
            ("sid", .string(claims.sessionID)), ("aid", .string(claims.appID)), ("iv", .int(claims.integrationVersion)),
            ("iat", .int(claims.issuedAt)), ("nbf", .int(claims.issuedAt)), ("exp", .int(claims.expiresAt)),
        ])
        return token(payload)
    }

    /// An SDK client token with claims `aid, typ, iat, exp, v`.
    static func clientToken(appID: String, issuedAt: Int, expiresAt: Int, version: Int) -> String {
        let payload = WireJSON.object([
            ("aid", .string(appID)), ("typ", .string("sdk_client")), ("iat", .int(issuedAt)), ("exp", .int(expiresAt)),
            ("v", .int(version)),
        ])
        return token(payload)
    }

    private static func token(_ payload: WireJSON) -> String {
        // Eight bytes per draw: each draw is a `getrandom` call, and a byte at a time made 32 of them per token.
        var generator = SystemRandomNumberGenerator()
        let signature = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        return header + "." + base64URL(payload.bytes(.compact)) + "." + base64URL(signature)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Random identifiers in the real formats.
enum Identifiers {
    /// A lower-case UUID4 string (Foundation's `UUID()` opens `/dev/urandom` for each one; a turn needs several).
    static func uuid() -> String { UUIDText.make() }

    /// An OpenAI-style tool-call id, `call_` + 24 hex digits.
    static func callID() -> String {
        let digits = UUIDText.make().utf8.lazy.filter { $0 != UInt8(ascii: "-") }.prefix(24)
        return "call_" + String(decoding: digits, as: UTF8.self)
    }

    /// Whether `text` is a UUID as pydantic accepts it (hex with or without hyphens, optional braces/urn prefix
    /// are not needed by any SDK, so only the canonical and the 32-digit forms are accepted).
    static func canonicalUUID(_ text: String) -> String? {
        UUID(uuidString: text)?.uuidString.lowercased()
            ?? (text.count == 32 && text.allSatisfy(\.isHexDigit) ? hyphenated(text.lowercased()) : nil)
    }

    private static func hyphenated(_ hex: String) -> String {
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return groups.joined(separator: "-")
    }
}
