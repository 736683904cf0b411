import Foundation
import ResolveKitCore

extension ResolveKitConfiguration {
    /// The state folder this configuration resolves to, or `nil` for memory only or Redis.
    ///
    /// ``StateLocation/automatic`` is `$XDG_STATE_HOME/resolvekit/<program>/<host>[_port]-<key>` (or
    /// `~/.local/state/resolvekit/…`): one folder per program, backend and API key, where `<key>` is the first 12
    /// hexadecimal digits of the key's SHA-256 (the key itself never appears in a path). The key is read from
    /// ``apiKeyProvider`` here, so a new key starts a new folder.
    public var resolvedStateDirectory: String? {
        switch stateLocation {
        case .inMemory, .redis: return nil
        case .directory(let path): return path
        case .automatic:
            return Self.automaticFolder(
                root: ResolveKitDefaults.stateRoot, program: programName, baseURL: resolvedBaseURL,
                apiKey: apiKeyProvider())
        }
    }

    /// `<root>/<program>/<host>[_port]-<key digest>`, each part reduced to letters, digits, `.`, `_` and `-`.
    static func automaticFolder(root: String, program: String, baseURL: URL?, apiKey: String?) -> String {
        let host = (baseURL?.host).flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let port = baseURL?.port.map { "_\($0)" } ?? ""
        let key = apiKey.flatMap { $0.isEmpty ? nil : String(SHA256.hexDigest($0).prefix(12)) } ?? "no-key"
        let program = safe(program, fallback: "program")
        return root + "/" + program + "/" + safe(host + port, fallback: "default") + "-" + key
    }

    /// `name` with anything but letters, digits, `.`, `_` and `-` replaced by `_`, and never `.` or `..`.
    private static func safe(_ name: String, fallback: String) -> String {
        let cleaned = String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" ? $0 : "_" })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? fallback : cleaned
    }
}
