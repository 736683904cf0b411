internal import CCurl
import Glibc

/// The curl thread's side of one transfer: the easy handle, its header list and error buffer, and the callbacks
/// that feed ``Transfer``. Created, used and freed on the curl thread only.
final class CurlTransfer {
    /// The shared exchange.
    let transfer: Transfer
    /// The easy handle.
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headParser: ResponseHeadParser
    private var headDelivered = false

    /// Configures `easy` (new, or reset to libcurl's defaults) for `transfer`. The caller keeps the handle: on a
    /// throw, and after ``cleanUp()``, it may use or free it.
    /// - Throws: ``HTTPError`` when libcurl rejects an option (e.g. a malformed URL scheme).
    init(transfer: Transfer, easy: UnsafeMutableRawPointer, configuration: HTTPClient.Configuration) throws(HTTPError) {
        self.transfer = transfer
        self.easy = easy
        self.errorBuffer = .allocate(capacity: Int(RK_CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(RK_CURL_ERROR_SIZE))
        self.headParser = ResponseHeadParser(followsRedirects: transfer.request.followRedirects)
        do throws(HTTPError) {
            try configure(configuration)
        } catch {
            cleanUp()
            throw error
        }
    }

    /// Resets the easy handle to libcurl's defaults, so it no longer points to this transfer's header list and
    /// error buffer, then frees those; the handle itself stays the caller's. Call after removing it from the multi
    /// handle.
    func cleanUp() {
        curl_easy_reset(easy)
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer.deallocate()
    }

    /// The error for a failed transfer, with libcurl's detail text and what it knows of TLS and the proxy.
    func error(for code: CURLcode) -> HTTPError {
        failure(for: code, detail: String(cString: errorBuffer)).error
    }

    /// Delivers the head of a transfer that completed without its terminating empty line having been seen.
    func deliverHeadIfNeeded() {
        guard !headDelivered, let head = headParser.partialHead else { return }
        headDelivered = true
        transfer.curlReceivedHead(head)
    }

    private func configure(_ configuration: HTTPClient.Configuration) throws(HTTPError) {
        let request = transfer.request
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try set(CURLOPT_PIPEWAIT, 1)
        try configureNetwork(transfer.network)
        if let timeout = request.timeout { try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout)) }
        if let bytes = request.receiveBufferBytes { try set(CURLOPT_BUFFERSIZE, bytes) }
        if request.closesConnection { try set(CURLOPT_FORBID_REUSE, 1) }
        if request.followRedirects {
            try set(CURLOPT_FOLLOWLOCATION, 1)
            try set(CURLOPT_MAXREDIRS, 10)
        }
        if let userAgent = configuration.userAgent { try set(CURLOPT_USERAGENT, userAgent) }
        try configureMethodAndBody(request)
        try configureHeaders(request)
        try check(rk_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(rk_curl_easy_setopt_write_callback(easy, curlTransferWriteCallback))
        try check(rk_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata))
        try check(rk_curl_easy_setopt_header_callback(easy, curlTransferHeaderCallback))
        try check(rk_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata))
    }

    private func configureMethodAndBody(_ request: HTTPRequest) throws(HTTPError) {
        let method = request.method
        if let body = request.body {
            try check(rk_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS copies the bytes, so the request may go away; it also selects POST.
            if body.isEmpty {
                try set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                let code = body.withUnsafeBytes { raw in
                    rk_curl_easy_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
                }
                try check(code)
            }
            if method != .post { try set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        } else if method == .get {
            try set(CURLOPT_HTTPGET, 1)
        } else if method == .head {
            try set(CURLOPT_NOBODY, 1)
        } else {
            try set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    /// Hands libcurl the request's header lines. Each line is written into one buffer that every line reuses
    /// (`curl_slist_append` copies it), where a `String` and its C copy per header would cost two allocations each.
    private func configureHeaders(_ request: HTTPRequest) throws(HTTPError) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for header in request.headers {
            // `Name;` is how libcurl sends a header with an empty value (`Name:` would remove it).
            try appendHeader(header.name, header.value.isEmpty ? ";" : ": ", header.value, in: &line)
        }
        // No `Expect: 100-continue` round trip before large bodies; no form content type curl would invent.
        try appendHeader("Expect", ":", "", in: &line)
        if request.body != nil, !request.headers.contains(name: "Content-Type") {
            try appendHeader("Content-Type", ":", "", in: &line)
        }
        try check(rk_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
    }

    /// Adds the line `name`, `separator`, `value` to the header list, written into `line`.
    private func appendHeader(
        _ name: String, _ separator: String, _ value: String, in line: inout [UInt8]
    ) throws(HTTPError) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: name.utf8)
        line.append(contentsOf: separator.utf8)
        line.append(contentsOf: value.utf8)
        line.append(0)
        let appended = line.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { curl_slist_append(headerList, $0.baseAddress) }
        }
        guard let appended else {
            throw HTTPError(code: .transportFailed, message: "curl_slist_append failed: out of memory")
        }
        headerList = appended
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(rk_curl_easy_setopt_long(easy, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(rk_curl_easy_setopt_string(easy, option, value))
    }

    func check(_ code: CURLcode) throws(HTTPError) {
        guard code == CURLE_OK else { throw HTTPError.curl(code, detail: nil) }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    // MARK: Callbacks (curl thread, inside curl_multi_perform or curl_easy_pause)

    fileprivate func received(headerLine: UnsafeRawBufferPointer) -> Int {
        let isTrailer = headParser.isComplete
        if headParser.take(line: headerLine), !headDelivered, let head = headParser.partialHead {
            headDelivered = true
            transfer.curlReceivedHead(head)
        }
        if isTrailer, !headParser.trailers.isEmpty { transfer.curlReceivedTrailers(headParser.trailers) }
        return headerLine.count
    }

    fileprivate func received(body: UnsafeRawBufferPointer) -> Int {
        guard !body.isEmpty else { return 0 }
        deliverHeadIfNeeded()
        let bytes = [UInt8](unsafeUninitializedCapacity: body.count) { buffer, initialised in
            initialised = buffer.initialize(fromContentsOf: body)
        }
        switch transfer.curlReceivedBody(bytes) {
        case .accept, .deliver: return body.count
        case .pause: return Int(RK_CURL_WRITEFUNC_PAUSE)
        case .abort: return 0
        }
    }
}

private func curlTransferWriteCallback(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
    return transfer.received(body: UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private func curlTransferHeaderCallback(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
    return transfer.received(headerLine: UnsafeRawBufferPointer(start: buffer, count: size * count))
}
