import ResolveKitCLI
import ResolveKitHTTP

extension NetworkOptions {
    /// `--ca-file`, `--ca-dir`, `--ca-only`: the system store by default, yours beside it, or yours alone.
    func resolveTrust(_ lookup: Lookup, into resolved: inout Resolved) throws(UsageError) {
        let file = try lookup.path(.caFile)
        let folder = try lookup.path(.caDirectory)
        let only = try lookup.isOn(.caOnly)
        if let folder, folder.value.contains(":") {
            throw UsageError(
                "\(folder.source) \(folder.value) contains ':', which separates folders for OpenSSL; move or link "
                    + "the folder")
        }
        if let only, only.value, file == nil, folder == nil {
            throw UsageError(
                "\(only.source) needs --ca-file or --ca-dir (or their variables): trusting only your own CAs, and "
                    + "none given, nothing would verify")
        }
        resolved.settings.trust = .init(
            caFile: file?.value, caDirectory: folder?.value, includesSystemStore: !(only?.value ?? false))
        resolved.summary["ca_file"] = file?.value
        resolved.summary["ca_dir"] = folder?.value
        if only?.value == true { resolved.summary["ca_only"] = "true" }
    }

    /// `--client-cert`, `--client-key`, `--client-key-passphrase-file`: the identity for mutual TLS.
    func resolveIdentity(
        _ lookup: Lookup, readFile: (String) throws -> [UInt8], into resolved: inout Resolved
    ) throws(UsageError) {
        let certificate = try lookup.path(.clientCertificate)
        let key = try lookup.path(.clientKey)
        let passphraseFile = try lookup.path(.clientKeyPassphraseFile)
        guard let certificate else {
            if let other = key ?? passphraseFile {
                throw UsageError("\(other.source) needs --client-cert (or RESOLVEKIT_CLIENT_CERT)")
            }
            return
        }
        var identity = NetworkSettings.ClientIdentity(certificateFile: certificate.value, keyFile: key?.value)
        if let passphraseFile {
            let secret = try Self.secret(in: passphraseFile, readFile: readFile, holding: "the key's passphrase")
            resolved.secrets.append(secret)
            identity.passphrase = { secret }
        }
        resolved.settings.clientIdentity = identity
        resolved.summary["client_cert"] = certificate.value
        resolved.summary["client_key"] = key?.value
    }

    /// `--pin` (repeatable) or `RESOLVEKIT_PINS` (separated by `;`, as curl's `--pinnedpubkey`).
    func resolvePins(_ lookup: Lookup, into resolved: inout Resolved) throws(UsageError) {
        guard let pins = try lookup.list(.pin, separatedBy: { $0 == ";" }) else { return }
        var parsed: [NetworkSettings.PublicKeyPin] = []
        for text in pins.value {
            do {
                parsed.append(try NetworkSettings.PublicKeyPin(text))
            } catch {
                throw UsageError(
                    "\(pins.source) expects sha256// and the base64 SHA-256 of the server's public key (44 "
                        + "characters), got '\(text.prefix(80))'")
            }
        }
        resolved.settings.pinnedPublicKeys = parsed
        resolved.summary["pins"] = String(parsed.count)
    }

    /// The secret in the file `given` names: its text without the final line break, which must be one line.
    /// - Throws: ``UsageError`` naming the flag or variable and the path, never the file's content.
    static func secret(
        in given: Given<String>, readFile: (String) throws -> [UInt8], holding what: String
    ) throws(UsageError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try readFile(given.value)
        } catch {
            throw UsageError("\(given.source) \(given.value) cannot be read")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last.isNewline { text.removeLast() }
        guard !text.isEmpty else { throw UsageError("\(given.source) \(given.value) is empty; it must hold \(what)") }
        guard !text.contains(where: \.isNewline) else {
            throw UsageError("\(given.source) \(given.value) must hold \(what) on one line")
        }
        return text
    }
}
