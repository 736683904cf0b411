/// One HTTP request for ``HTTPClient``.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, `http://` or `https://`.
    public var url: String
    /// Header fields to send; libcurl adds `Host`, framing headers and `Accept` defaults.
    public var headers: HTTPHeaders
    /// The body, sent with `Content-Length`; `nil` sends none.
    public var body: [UInt8]?
    /// How long connecting (DNS, TCP, TLS) may take.
    public var connectTimeout: Duration
    /// The deadline for the whole exchange, body included; `nil` for none, as for a long-lived event stream.
    public var timeout: Duration?
    /// Whether 3xx answers are followed; off by default so credentials never travel to another host unasked.
    public var followRedirects: Bool
    /// The size of libcurl's receive buffer for this transfer (`CURLOPT_BUFFERSIZE`, 1 KiB to 512 KiB); `nil`
    /// keeps libcurl's 16 KiB. A long-lived stream of small events held open by the thousand can use less.
    public var receiveBufferBytes: Int?
    /// Whether the response stays open for long, as an event stream does. The client's thread serves such a
    /// transfer's socket before any other, and looks at it again after every few requests it starts or serves, so
    /// its bytes are read when they arrive, even during a burst of other requests.
    public var isLongLived: Bool
    /// Trust, client identity, pins, proxy, extra headers, observer and TLS/HTTP tuning for this request. The default
    /// is the system CA store and the environment's proxy.
    public var network: NetworkSettings
    /// Whether the connection is closed once the exchange is over instead of kept for the next request
    /// (`CURLOPT_FORBID_REUSE`): for a server whose connections libcurl cannot reuse (gRPC servers over HTTP/2 with
    /// libcurl 7.88, which fails the next request on it).
    public var closesConnection = false
    /// Fired from outside when the exchange stalled (e.g. no response head within a stream's idle timeout): it ends
    /// as timed out and its connection is shut down.
    public var stallSignal: StallSignal?

    /// Creates a request.
    public init(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil,
        connectTimeout: Duration = .seconds(10), timeout: Duration? = nil, followRedirects: Bool = false,
        receiveBufferBytes: Int? = nil, isLongLived: Bool = false, network: NetworkSettings = NetworkSettings()
    ) {
        self.network = network
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.followRedirects = followRedirects
        self.receiveBufferBytes = receiveBufferBytes.map { min(512 * 1024, max(1024, $0)) }
        self.isLongLived = isLongLived
    }
}
