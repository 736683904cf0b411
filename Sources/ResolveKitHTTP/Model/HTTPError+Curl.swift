internal import CCurl

extension HTTPError {
    /// Maps a `CURLcode` and libcurl's detail text to an error, for failures without a transfer's details (a
    /// rejected option).
    static func curl(_ code: CURLcode, detail: String?) -> HTTPError {
        CurlFailure(code: Int(code.rawValue), detail: detail).error
    }

    /// What OpenSSL says when the bytes that came back to its handshake are not TLS: a plain-HTTP server's
    /// `HTTP/1.1 400` read as a TLS record.
    static let plainHTTPAnswerMarkers = ["wrong version number", "packet length too long"]

    /// Whether libcurl's detail says the server answered the TLS handshake with something that is not TLS.
    static func isPlainHTTPAnswer(_ detail: String?) -> Bool {
        guard let detail = detail?.lowercased() else { return false }
        return plainHTTPAnswerMarkers.contains { detail.contains($0) }
    }
}

/// What libcurl reported about a failed transfer, read on the curl thread before its handle is reset, and the
/// error it means. Where one `CURLcode` covers several causes (60 for any verification failure, 35 and 56 for a TLS
/// alert), OpenSSL's verification result and the alert named in libcurl's error text tell them apart. Pure.
package struct CurlFailure: Sendable, Hashable {
    /// The `CURLcode`.
    package var code: Int
    /// libcurl's error buffer (`CURLOPT_ERRORBUFFER`); `nil` or empty when it wrote none.
    package var detail: String?
    /// `CURLINFO_SSL_VERIFYRESULT`: OpenSSL's `X509_V_ERR_*`, 0 when verification passed or did not run.
    package var verifyResult = 0
    /// `CURLINFO_HTTP_CONNECTCODE`: the proxy's answer to `CONNECT`, 0 without one.
    package var proxyStatus = 0
    /// `CURLINFO_PROXY_ERROR`: a `CURLPX_*` value for `CURLE_PROXY` (97), 0 otherwise.
    package var proxyError = 0
    /// Whether ``NetworkSettings/proxy`` named a proxy, so a refused connection is the proxy's.
    package var usesConfiguredProxy = false
    /// The environment's proxy variable for the URL (``NetworkSettings/environmentProxy(for:)``) when the settings
    /// leave the proxy to the environment: a refused connection may be that proxy's.
    package var environmentProxy: String?
    /// Whether a ``NetworkSettings/lowSpeedLimit`` was set, so a libcurl timeout may be that floor.
    package var hasLowSpeedLimit = false

    /// Creates a failure report.
    package init(
        code: Int, detail: String?, verifyResult: Int = 0, proxyStatus: Int = 0, proxyError: Int = 0,
        usesConfiguredProxy: Bool = false, hasLowSpeedLimit: Bool = false
    ) {
        self.code = code
        self.detail = detail
        self.verifyResult = verifyResult
        self.proxyStatus = proxyStatus
        self.proxyError = proxyError
        self.usesConfiguredProxy = usesConfiguredProxy
        self.hasLowSpeedLimit = hasLowSpeedLimit
    }

    /// The error for the failure.
    package var error: HTTPError {
        let text = String(cString: curl_easy_strerror(CURLcode(UInt32(clamping: code))))
        let curlMessage = (detail?.isEmpty ?? true) ? text : detail
        let (kind, message) = classify(text: curlMessage ?? text)
        return HTTPError(
            code: kind, message: message, curlCode: code, curlMessage: curlMessage,
            tlsVerifyResult: verifyResult == 0 ? nil : verifyResult, proxyStatus: proxyStatus == 0 ? nil : proxyStatus)
    }

    private func classify(text: String) -> (HTTPError.Code, String) {
        if let proxy = proxyCause(text) { return proxy }
        switch code {
        case 60: return verificationCause(text)
        case 90:
            return (
                .pinMismatch,
                "The server's public key matches none of the pinned keys; if its key was rotated, pin the new key "
                    + "beside the old one"
            )
        case 58:
            return (
                .clientIdentityUnusable,
                "The client certificate or key could not be used (unreadable, not PEM, a wrong passphrase, or a key "
                    + "that does not belong to the certificate): \(text)"
            )
        case 77:
            return (.trustStoreUnusable, "The CA file or folder of the trust settings could not be read: \(text)")
        case 35 where HTTPError.isPlainHTTPAnswer(text):
            return (
                .tlsFailed,
                "The server answered the TLS handshake in plain HTTP: use an http:// URL for it, or its TLS port: "
                    + text
            )
        case 35, 56:
            if let alert = alertCause(text) { return alert }
            return Self.classifyGeneric(code, text: text)
        case 28 where hasLowSpeedLimit && text.lowercased().contains("too slow"):
            return (
                .tooSlow, "The transfer stayed below the configured speed floor; the connection is stalled: \(text)"
            )
        default:
            return Self.classifyGeneric(code, text: text)
        }
    }

    private func proxyCause(_ text: String) -> (HTTPError.Code, String)? {
        // tinyproxy answers wrong credentials with 401 rather than 407; from a proxy, both mean its credentials.
        if proxyStatus == 407 || proxyStatus == 401
            || proxyError == Int(CURLPX_USER_REJECTED.rawValue) || proxyError == Int(CURLPX_NO_AUTH.rawValue)
        {
            return (
                .proxyAuthenticationRequired,
                "The proxy wants credentials (\(proxyStatus == 0 ? "SOCKS" : String(proxyStatus))) and none or wrong "
                    + "ones were sent; set the proxy's credentials"
            )
        }
        if proxyStatus != 0, !(200..<300).contains(proxyStatus) {
            return (.proxyRefused, "The proxy refused to open a tunnel to the server (CONNECT answered \(proxyStatus))")
        }
        switch code {
        case 5:
            return (.proxyRefused, "The proxy's host name could not be resolved; check the proxy URL: \(text)")
        case 97:
            return (.proxyRefused, "The proxy refused the connection to the server: \(text)")
        case 7 where usesConfiguredProxy:
            return (.proxyRefused, "Could not connect to the proxy; is it running and reachable? \(text)")
        case 7 where environmentProxy != nil:
            return (
                .connectFailed,
                "Could not connect to the proxy the environment names (\(environmentProxy ?? "")) or, if no_proxy "
                    + "lists this host, to the server; is it running and reachable? \(text)"
            )
        default:
            return nil
        }
    }

    private func verificationCause(_ text: String) -> (HTTPError.Code, String) {
        switch verifyResult {
        case 2, 18, 19, 20, 21, 27, 28:
            return (
                .untrustedCertificate,
                "The server's certificate is not signed by a certificate authority this client trusts; add your "
                    + "company's CA to the trust settings (a CA file or folder): \(text)"
            )
        case 9:
            return (
                .certificateNotYetValid,
                "The server's certificate is not valid yet; check this machine's clock: \(text)"
            )
        case 10:
            return (.certificateExpired, "The server's certificate has expired; its operator must renew it: \(text)")
        case 62, 64:
            return (.hostnameMismatch, Self.hostnameMessage(text))
        case _ where text.contains("target host name"):
            // libcurl checks the name itself once OpenSSL verified the chain: "no alternative certificate subject name
            // matches target host name …", "certificate subject name … does not match target host name …".
            return (.hostnameMismatch, Self.hostnameMessage(text))
        default:
            return (.tlsFailed, "The server's certificate failed verification: \(text)")
        }
    }

    private static func hostnameMessage(_ text: String) -> String {
        "The server's certificate is not valid for the host name in the URL; use the name it was issued for, or "
            + "have it reissued: \(text)"
    }

    /// A TLS alert the server sent about the client certificate (in the handshake for TLS 1.2, on the first read
    /// for TLS 1.3), as OpenSSL names it in the error text: `tlsv13 alert certificate required`, `tlsv1 alert
    /// unknown ca`, `sslv3 alert bad certificate`…
    private func alertCause(_ text: String) -> (HTTPError.Code, String)? {
        let lowered = text.lowercased()
        // The server's alert about the client's versions, or OpenSSL's own finding about the server's.
        if lowered.contains("alert protocol version") || lowered.contains("unsupported protocol") {
            return (
                .tlsVersionMismatch,
                "The server speaks no TLS version this client accepts (TLS 1.2 or 1.3 by default, only 1.3 with a "
                    + "minimum of 1.3): \(text)"
            )
        }
        guard lowered.contains("alert") else { return nil }
        if lowered.contains("alert certificate required") {
            return (
                .clientCertificateRequired,
                "The server requires a client certificate (mutual TLS) and none was sent; configure the client "
                    + "identity: \(text)"
            )
        }
        let refusals = [
            "alert unknown ca", "alert bad certificate", "alert certificate unknown", "alert certificate expired",
            "alert certificate revoked", "alert unsupported certificate", "alert access denied",
        ]
        guard refusals.contains(where: lowered.contains) else { return nil }
        return (
            .clientCertificateRejected,
            "The server refused the client certificate; check that a CA the server trusts issued it and that it "
                + "has not expired: \(text)"
        )
    }

    private static func classifyGeneric(_ raw: Int, text: String) -> (HTTPError.Code, String) {
        switch raw {
        case 1, 3:
            return (.invalidRequest, "The URL is malformed or not http/https: \(text)")
        case 5, 6:
            return (.connectFailed, "The host name could not be resolved; check the URL and DNS: \(text)")
        case 7:
            return (.connectFailed, "Could not connect to the server; is it running and reachable? \(text)")
        case 28:
            return (.timedOut, "The deadline passed before the exchange completed: \(text)")
        case 35, 53, 54, 59, 64, 66, 80, 82, 83, 91:
            return (.tlsFailed, "TLS failed; check the server certificate and the trust settings: \(text)")
        case 8, 16, 47, 92:
            return (.protocolError, "The server's answer broke HTTP: \(text)")
        case 18, 52, 55, 56:
            return (.connectionLost, "The connection dropped before the response was complete: \(text)")
        case 42, 23:
            return (.cancelled, "The transfer was aborted: \(text)")
        default:
            return (.transportFailed, "The HTTP transfer failed: \(text)")
        }
    }
}
