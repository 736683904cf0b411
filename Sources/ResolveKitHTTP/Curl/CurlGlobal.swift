internal import CCurl

/// Process-wide libcurl set-up, run once.
enum CurlGlobal {
    private static let result: CURLcode = curl_global_init(RK_CURL_GLOBAL_DEFAULT)

    /// Runs `curl_global_init` the first time it is called (thread-safe; Swift initialises statics once).
    static func initialise() {
        _ = result
    }

    /// Whether the linked libcurl supports HTTP/3.
    static let supportsHTTP3: Bool = rk_curl_supports_http3()

    /// The linked libcurl's version, e.g. `7.88.1`.
    static let version: String = String(cString: rk_curl_version_string())

    /// libcurl's built-in CA folder (`CURLINFO_CAPATH`, `/etc/ssl/certs` on Debian and Ubuntu); `nil` when it was
    /// built without one.
    static let systemCAPath: String? = {
        initialise()
        guard let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var path: UnsafePointer<CChar>?
        guard rk_curl_easy_getinfo_string(easy, CURLINFO_CAPATH, &path) == CURLE_OK, let path else { return nil }
        let text = String(cString: path)
        return text.isEmpty ? nil : text
    }()
}
