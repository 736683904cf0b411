package import ResolveKitCore
package import ResolveKitHTTP

/// A failure whose cause is the network, in the words a tool prints: the `HTTPError` a `ResolveKitError` carries as
/// its ``ResolveKitCore/ResolveKitError/underlying`` cause, its meaning in a few words ("untrusted certificate"), and
/// which flag changes it.
package struct NetworkFailure: Sendable {
    /// The network's own error.
    package var cause: HTTPError

    /// The network failure inside `error`, or `nil` when its cause is not the network's (a rejected key, a lost
    /// turn).
    package init?(_ error: ResolveKitError) {
        guard let cause = error.underlying as? HTTPError else { return nil }
        self.cause = cause
    }

    /// The failure of `cause`.
    package init(_ cause: HTTPError) {
        self.cause = cause
    }

    /// The cause in a few words: `untrusted certificate`, `pin mismatch`, `proxy needs authentication`…
    package var words: String {
        switch cause.code {
        case .untrustedCertificate: "untrusted certificate"
        case .hostnameMismatch: "hostname mismatch"
        case .certificateExpired: "expired certificate"
        case .certificateNotYetValid: "certificate not yet valid"
        case .pinMismatch: "pin mismatch"
        case .clientCertificateRequired: "client certificate required"
        case .clientCertificateRejected: "client certificate rejected"
        case .clientIdentityUnusable: "unusable client certificate or key"
        case .trustStoreUnusable: "unreadable CA file or folder"
        case .proxyRefused: "proxy refused"
        case .proxyAuthenticationRequired: "proxy needs authentication"
        case .tooSlow: "too slow"
        case .headerNotAllowed: "header not allowed"
        case .invalidSettings: "invalid network settings"
        case .tlsFailed: "TLS failed"
        case .tlsVersionMismatch: "no TLS version in common"
        case .connectFailed: "connection failed"
        case .timedOut: "timed out"
        case .connectionLost: "connection lost"
        case .protocolError: "protocol error"
        case .invalidRequest: "invalid URL"
        case .httpStatus: "HTTP \(cause.status.map(String.init) ?? "error")"
        default: cause.code.rawValue.replacingUnderscores
        }
    }

    /// Which flags or variables change it, when the tool's own settings can.
    package var fix: String? {
        switch cause.code {
        case .untrustedCertificate:
            "trust your company's CA with --ca-file FILE or --ca-dir DIR (RESOLVEKIT_CA_FILE, RESOLVEKIT_CA_DIR)"
        case .hostnameMismatch:
            "use the host name the certificate was issued for in --base-url, or have the certificate reissued"
        case .certificateExpired: "the server's operator must renew its certificate"
        case .certificateNotYetValid: "check this machine's clock"
        case .pinMismatch:
            "if the server's key was rotated on purpose, add the new key's --pin (RESOLVEKIT_PINS) beside the old one"
        case .clientCertificateRequired:
            "send a client certificate with --client-cert FILE and --client-key FILE (RESOLVEKIT_CLIENT_CERT, "
                + "RESOLVEKIT_CLIENT_KEY)"
        case .clientCertificateRejected:
            "use a client certificate from a CA the server trusts, and one that has not expired"
        case .clientIdentityUnusable:
            "check --client-cert, --client-key and --client-key-passphrase-file (a wrong passphrase, or a key that is "
                + "not the certificate's)"
        case .trustStoreUnusable: "check the paths of --ca-file and --ca-dir"
        case .tlsVersionMismatch:
            "if --tls-min (RESOLVEKIT_TLS_MIN) is 1.3, the server may speak 1.2 only: leave it at 1.2; a server older "
                + "than TLS 1.2 must be upgraded by its operator"
        case .proxyRefused:
            "check --proxy (or https_proxy), that the proxy runs, and that it lets you reach the backend's host"
        case .proxyAuthenticationRequired:
            "give the proxy's address with --proxy URL (a proxy from https_proxy takes no credentials), its user with "
                + "--proxy-user and its password in a file with --proxy-password-file (RESOLVEKIT_PROXY, "
                + "RESOLVEKIT_PROXY_USER, RESOLVEKIT_PROXY_PASSWORD_FILE)"
        case .headerNotAllowed: "leave out the --header that would replace one the request carries"
        default: nil
        }
    }

    /// Whether trying again cannot help until something changes: a certificate, a key, a pin, the proxy's
    /// credentials, the settings. A refused or dropped connection, a deadline, a stalled transfer may pass.
    package var retryingCannotHelp: Bool {
        Self.needsAChange.contains(cause.code)
    }

    private static let needsAChange: Set<HTTPError.Code> = [
        .untrustedCertificate, .hostnameMismatch, .certificateExpired, .certificateNotYetValid, .pinMismatch,
        .clientCertificateRequired, .clientCertificateRejected, .clientIdentityUnusable, .trustStoreUnusable,
        .proxyAuthenticationRequired, .headerNotAllowed, .invalidSettings, .tlsVersionMismatch,
    ]

    /// What a tool prints when `error` ended its work: `<tool>: <headline>: <the cause in words>`, then the error's
    /// message and what to change, indented; or one line with the message when the cause is not the network's.
    package static func report(_ error: ResolveKitError, tool: String, headline: String) -> [String] {
        guard let failure = NetworkFailure(error) else { return ["\(tool): \(headline): \(error.message)"] }
        var lines = ["\(tool): \(headline): \(failure.words)", "  \(error.message)"]
        if let fix = failure.fix { lines.append("  To fix: \(fix).") }
        return lines
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
