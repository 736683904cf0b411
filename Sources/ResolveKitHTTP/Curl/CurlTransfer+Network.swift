internal import CCurl

extension CurlTransfer {
    /// Applies a request's network settings, each through its libcurl option. The handle was reset, so an option
    /// left alone has libcurl's default: the system CA store, the environment's proxy.
    func configureNetwork(_ network: NetworkSettings.Prepared) throws(HTTPError) {
        let request = transfer.request
        try setLocations(network, file: rk_curl_set_ca_file, path: rk_curl_set_ca_path)
        try setLocations(network, file: rk_curl_set_proxy_ca_file, path: rk_curl_set_proxy_ca_path)
        if let seconds = network.caCacheSeconds { try check(rk_curl_set_ca_cache_timeout(easy, seconds)) }
        if let certificate = network.clientCertificate {
            try check(rk_curl_set_client_certificate(easy, certificate))
            if let key = network.clientKey { try check(rk_curl_set_client_key(easy, key)) }
            // Without a passphrase, an empty one: an encrypted key then fails as unusable, where OpenSSL would
            // otherwise ask for one on the terminal and wait there for ever.
            try check(rk_curl_set_key_password(easy, network.keyPassphrase ?? ""))
        }
        if let pins = network.pins { try check(rk_curl_set_pinned_public_key(easy, pins)) }
        if let proxy = network.proxy {
            try check(rk_curl_set_proxy(easy, proxy))
            if let hosts = network.bypassHosts { try check(rk_curl_set_no_proxy(easy, hosts)) }
            if let user = network.proxyUser { try check(rk_curl_set_proxy_username(easy, user)) }
            if let password = network.proxyPassword { try check(rk_curl_set_proxy_password(easy, password)) }
        }
        let tls = network.minimumTLSVersion == .tls1_3 ? CURL_SSLVERSION_TLSv1_3 : CURL_SSLVERSION_TLSv1_2
        try check(rk_curl_set_ssl_version(easy, Int(tls)))
        try check(rk_curl_set_http_version(easy, Int(Self.httpVersion(network.httpVersion, url: request.url))))
        let connectTimeout = network.connectTimeout ?? request.connectTimeout
        try check(rk_curl_set_connect_timeout_ms(easy, Self.milliseconds(connectTimeout)))
        if let floor = network.lowSpeedLimit {
            let seconds = max(1, Int(floor.duration.components.seconds))
            try check(rk_curl_set_low_speed(easy, floor.bytesPerSecond, seconds))
        }
    }

    private func setLocations(
        _ network: NetworkSettings.Prepared,
        file: (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> CURLcode,
        path: (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> CURLcode
    ) throws(HTTPError) {
        try set(network.caFile, through: file)
        try set(network.caPath, through: path)
    }

    private func set(
        _ location: NetworkSettings.Prepared.Location,
        through option: (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> CURLcode
    ) throws(HTTPError) {
        switch location {
        case .keep: break
        case .set(let value): try check(option(easy, value))
        case .clear: try check(option(easy, nil))
        }
    }

    private static func httpVersion(_ preference: NetworkSettings.HTTPVersionPreference, url: String) -> Int {
        switch preference {
        case .automatic:
            let useHTTP3 = CurlGlobal.supportsHTTP3 && url.lowercased().hasPrefix("https://")
            return Int(useHTTP3 ? CURL_HTTP_VERSION_3 : CURL_HTTP_VERSION_2TLS)
        case .http1_1: return Int(CURL_HTTP_VERSION_1_1)
        case .http2: return Int(CURL_HTTP_VERSION_2TLS)
        case .http2PriorKnowledge: return Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }

    /// What libcurl knows about a failed transfer. Read before the handle is reset.
    func failure(for code: CURLcode, detail: String) -> CurlFailure {
        var failure = CurlFailure(
            code: Int(code.rawValue), detail: detail, verifyResult: longInfo(CURLINFO_SSL_VERIFYRESULT),
            proxyStatus: longInfo(CURLINFO_HTTP_CONNECTCODE), proxyError: longInfo(CURLINFO_PROXY_ERROR),
            usesConfiguredProxy: transfer.network.usesConfiguredProxy,
            hasLowSpeedLimit: transfer.network.lowSpeedLimit != nil)
        if transfer.network.leavesProxyToEnvironment {
            failure.environmentProxy = NetworkSettings.environmentProxy(for: transfer.request.url)
        }
        return failure
    }

    /// Tells the request's observer, if any, how the exchange went. Read before the handle is reset.
    func reportExchange(failure: HTTPError?) {
        guard let observer = transfer.network.observer else { return }
        let status = longInfo(CURLINFO_RESPONSE_CODE)
        let proxyStatus = longInfo(CURLINFO_HTTP_CONNECTCODE)
        let timings = HTTPExchangeRecord.Timings(
            nameLookup: microseconds(CURLINFO_NAMELOOKUP_TIME_T), connect: microseconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: microseconds(CURLINFO_APPCONNECT_TIME_T),
            preTransfer: microseconds(CURLINFO_PRETRANSFER_TIME_T),
            firstByte: microseconds(CURLINFO_STARTTRANSFER_TIME_T), total: microseconds(CURLINFO_TOTAL_TIME_T))
        let record = HTTPExchangeRecord(
            method: transfer.request.method, url: RedactedURL.redact(transfer.request.url),
            status: status == 0 ? nil : status, proxyStatus: proxyStatus == 0 ? nil : proxyStatus,
            failure: failure?.code, timings: timings, bytesSent: offInfo(CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: offInfo(CURLINFO_SIZE_DOWNLOAD_T),
            reusedConnection: status != 0 && longInfo(CURLINFO_NUM_CONNECTS) == 0)
        observer(record)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        return rk_curl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func offInfo(_ info: CURLINFO) -> Int {
        var value: curl_off_t = 0
        return rk_curl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? Int(value) : 0
    }

    private func microseconds(_ info: CURLINFO) -> Duration {
        .microseconds(offInfo(info))
    }
}
