/// An `http://` or `https://` URL taken apart: what an OTLP endpoint setting holds.
public struct EndpointURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    /// The host name or address; an IPv6 address without its brackets.
    public var host: String
    /// The port; the scheme's default (80, 443) when the URL names none.
    public var port: Int
    /// The path and query, starting with `/` (`/` when empty).
    public var target: String
    /// Whether the URL carried `user:password@`, which is kept out of every message.
    public var hasUserInfo: Bool
    private let text: String

    /// Parses `text`.
    /// - Throws: ``TelemetryError/Code/invalidConfiguration`` for anything but a well-formed `http://` or
    ///   `https://` URL with a host.
    public init(parsing text: String) throws(TelemetryError) {
        self.text = text
        let lower = text.lowercased()
        if lower.hasPrefix("http://") {
            scheme = "http"
        } else if lower.hasPrefix("https://") {
            scheme = "https"
        } else {
            throw TelemetryError(
                .invalidConfiguration,
                "\(Self.redacted(text)) is not an http:// or https:// URL (e.g. http://127.0.0.1:4318)")
        }
        var rest = Substring(text.dropFirst(scheme.count + 3))
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        target = rest.isEmpty ? "/" : (rest.hasPrefix("?") ? "/" + rest : String(rest))
        hasUserInfo = authority.contains("@")
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Self.invalid(text, "an unclosed [") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Self.invalid(text, "text after the ] of the address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw Self.invalid(text, "no host")
        }
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw Self.invalid(text, "the port is not a number from 1 to 65535")
            }
            port = value
        } else {
            port = scheme == "https" ? 443 : 80
        }
    }

    /// The URL as given, with any `user:password@` replaced by `…@`.
    public var description: String { Self.redacted(text) }

    /// `url` with any `user:password@` replaced by `…@`, for messages.
    public static func redacted(_ url: String) -> String {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else {
            return url
        }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd =
            bytes[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return url }
        return String(url[..<authorityStart]) + "…" + String(url[at...])
    }

    private static func invalid(_ text: String, _ problem: String) -> TelemetryError {
        TelemetryError(.invalidConfiguration, "\(redacted(text)) is not a usable URL: \(problem)")
    }
}
