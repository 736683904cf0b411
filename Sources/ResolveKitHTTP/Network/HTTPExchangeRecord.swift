/// One finished exchange as a ``NetworkSettings/observer`` sees it: what was asked, how it ended, and libcurl's
/// timings. Holds no secret: the URL lost its user info and query values, and no header or body is included.
public struct HTTPExchangeRecord: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The URL without user info, fragment or query values (see ``RedactedURL``).
    public var url: String
    /// The response status; `nil` when no response head arrived.
    public var status: Int?
    /// The status a proxy answered `CONNECT` with (`CURLINFO_HTTP_CONNECTCODE`); `nil` without a tunnel.
    public var proxyStatus: Int?
    /// Why the exchange failed; `nil` when it completed. A body the reader dropped early ends as
    /// ``HTTPError/Code/cancelled``.
    public var failure: HTTPError.Code?
    /// When each phase ended, counted from the start of the exchange (libcurl's `CURLINFO_*_TIME_T`).
    public var timings: Timings
    /// Body bytes sent and received.
    public var bytesSent: Int
    /// Body bytes received.
    public var bytesReceived: Int
    /// Whether a pooled connection was reused (no new connection was made).
    public var reusedConnection: Bool

    /// Creates a record.
    public init(
        method: HTTPMethod, url: String, status: Int?, proxyStatus: Int? = nil, failure: HTTPError.Code?,
        timings: Timings, bytesSent: Int = 0, bytesReceived: Int = 0, reusedConnection: Bool = false
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.proxyStatus = proxyStatus
        self.failure = failure
        self.timings = timings
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.reusedConnection = reusedConnection
    }

    /// When each phase of an exchange ended, from its start; a phase that did not happen (no DNS for an address, no
    /// TLS for `http://`, a reused connection) is zero.
    public struct Timings: Sendable, Hashable {
        /// Name resolution done (`CURLINFO_NAMELOOKUP_TIME_T`).
        public var nameLookup: Duration
        /// TCP connected, to the server or the proxy (`CURLINFO_CONNECT_TIME_T`).
        public var connect: Duration
        /// TLS handshake done (`CURLINFO_APPCONNECT_TIME_T`).
        public var tlsHandshake: Duration
        /// About to send the request (`CURLINFO_PRETRANSFER_TIME_T`).
        public var preTransfer: Duration
        /// First response byte received (`CURLINFO_STARTTRANSFER_TIME_T`).
        public var firstByte: Duration
        /// The whole exchange (`CURLINFO_TOTAL_TIME_T`).
        public var total: Duration

        /// Creates timings.
        public init(
            nameLookup: Duration = .zero, connect: Duration = .zero, tlsHandshake: Duration = .zero,
            preTransfer: Duration = .zero, firstByte: Duration = .zero, total: Duration = .zero
        ) {
            self.nameLookup = nameLookup
            self.connect = connect
            self.tlsHandshake = tlsHandshake
            self.preTransfer = preTransfer
            self.firstByte = firstByte
            self.total = total
        }
    }

    /// `GET https://host/v1/sessions/ID/events?cursor=… → 200 in 0.012 seconds`.
    public var description: String {
        let outcome = status.map(String.init) ?? failure?.rawValue ?? "no response"
        return "\(method) \(url) → \(outcome) in \(timings.total)"
    }
}
