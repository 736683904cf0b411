internal import CCurl

extension HTTPError {
    /// Maps a failed transfer's `CURLcode` and libcurl's detail text to an error.
    static func curl(_ code: CURLcode, detail: String?) -> HTTPError {
        let raw = Int(code.rawValue)
        let text = String(cString: curl_easy_strerror(code))
        let curlMessage = (detail?.isEmpty ?? true) ? text : detail
        let (kind, message) = Self.classify(raw, text: text, detail: curlMessage ?? text)
        return HTTPError(code: kind, message: message, curlCode: raw, curlMessage: curlMessage)
    }

    /// What OpenSSL says when the bytes that came back to its handshake are not TLS: a plain-HTTP server's
    /// `HTTP/1.1 400` read as a TLS record.
    static let plainHTTPAnswerMarkers = ["wrong version number", "packet length too long"]

    /// Whether libcurl's detail says the server answered the TLS handshake with something that is not TLS.
    static func isPlainHTTPAnswer(_ detail: String?) -> Bool {
        guard let detail = detail?.lowercased() else { return false }
        return plainHTTPAnswerMarkers.contains { detail.contains($0) }
    }

    private static func classify(_ raw: Int, text: String, detail: String) -> (Code, String) {
        switch raw {
        case 35 where isPlainHTTPAnswer(detail):
            return (
                .tlsFailed,
                "The server answered the TLS handshake in plain HTTP: use an http:// URL for it, or its TLS port: "
                    + text
            )
        case 1, 3:
            return (.invalidRequest, "The URL is malformed or not http/https: \(text)")
        case 5, 6:
            return (.connectFailed, "The host name could not be resolved; check the URL and DNS: \(text)")
        case 7:
            return (.connectFailed, "Could not connect to the server; is it running and reachable? \(text)")
        case 28:
            return (.timedOut, "The deadline passed before the exchange completed: \(text)")
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91:
            return (.tlsFailed, "TLS failed; check the server certificate and the system CA store: \(text)")
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
