/// How requests reach a server through a company's network: the certificate authorities trusted, a client identity
/// for mutual TLS, pinned public keys, the proxy, extra headers, an observer of every exchange, and TLS and HTTP
/// tuning. Each setting is applied through libcurl's own option for it; nothing here re-implements TLS or proxying.
///
/// Settings travel with each ``HTTPRequest`` (``HTTPRequest/network``), not with the ``HTTPClient``: a process has one
/// client (one curl thread, one connection pool) that every runtime shares, so runtimes with different settings
/// still share the thread. libcurl reuses a pooled connection only for a request whose TLS settings (CA file and
/// folder, client certificate, pins, TLS version) and proxy match that connection's, so requests with different
/// settings never share a connection.
///
/// The default value keeps what the client always did: the system CA store, no client certificate, no pins, the
/// proxy from the environment (`https_proxy`, `no_proxy`…), TLS 1.2 or later, HTTP/2 over TLS where offered.
/// Certificates are always verified; no setting turns verification off.
///
/// Secrets (the key passphrase, the proxy password) come from providers called for each request, are handed to
/// libcurl only, and never appear in a description, an error or an ``HTTPExchangeRecord``.
public struct NetworkSettings: Sendable {
    /// Adds header fields to one request; see ``headerProvider``.
    public typealias HeaderProvider = @Sendable (_ method: HTTPMethod, _ url: String) async -> HTTPHeaders
    /// Receives one record per finished exchange; see ``observer``.
    public typealias Observer = @Sendable (HTTPExchangeRecord) -> Void

    /// Which certificate authorities verify the server (and an `https://` proxy). Default: the system store.
    public var trust: Trust
    /// The client certificate and key for mutual TLS; `nil` (the default) sends none.
    public var clientIdentity: ClientIdentity?
    /// The server's public key must match one of these (`CURLOPT_PINNEDPUBLICKEY`), on top of normal verification.
    /// Give the next key's pin beside the current one to stage a rotation. Empty (the default): no pinning.
    public var pinnedPublicKeys: [PublicKeyPin]
    /// Where connections go: the environment's proxy (the default), no proxy, or a proxy given here.
    public var proxy: Proxy
    /// Fields added to every request, e.g. a gateway's tenant header. They add, never replace: a name the request
    /// already carries (`Authorization`, `Accept`, the capability header…) or one of ``protectedHeaderNames`` fails
    /// the request with ``HTTPError/Code/headerNotAllowed`` before anything is sent.
    public var headers: HTTPHeaders
    /// Called before each request with its method and URL; its fields are added under the same rule as
    /// ``headers`` (e.g. a gateway token that rotates). `nil` by default.
    public var headerProvider: HeaderProvider?
    /// Called once for each exchange libcurl ran, when it ends (a stream: when the stream ends), with the method,
    /// the URL without secrets, the status and libcurl's timings: for compliance logs and monitoring.
    ///
    /// It runs on the client's curl thread, which drives every transfer of the process: return quickly (hand the
    /// record to a queue or an `AsyncStream` continuation), as a slow observer delays every other transfer.
    public var observer: Observer?
    /// Whether ``observer`` wants the next record; `nil` means always. Asked on the curl thread before the record is
    /// made, so an observer that is off most of the time (a diagnostics tap nobody reads) costs nothing then.
    package var observerIsListening: (@Sendable () -> Bool)?
    /// The lowest TLS version accepted (`CURLOPT_SSLVERSION`). Default TLS 1.2.
    public var minimumTLSVersion: TLSVersion
    /// Which HTTP version to ask for (`CURLOPT_HTTP_VERSION`). Default ``HTTPVersionPreference/automatic``.
    public var httpVersion: HTTPVersionPreference
    /// How long DNS, TCP, the proxy and TLS may take (`CURLOPT_CONNECTTIMEOUT_MS`); replaces the request's own
    /// ``HTTPRequest/connectTimeout`` when set. `nil` (the default) keeps the request's.
    public var connectTimeout: Duration?
    /// Abort a transfer whose speed stays below a floor for a while (`CURLOPT_LOW_SPEED_LIMIT`/`_TIME`): a stalled
    /// proxy or gateway ends the stream instead of holding it. `nil` (the default): no floor.
    public var lowSpeedLimit: LowSpeedLimit?

    /// Header names that ``headers`` and ``headerProvider`` may never set, whatever the request carries: the API
    /// key's and the proxy's credentials, the session's capability token, and what libcurl frames the message with.
    public static let protectedHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "x-resolvekit-chat-capability", "host", "content-length",
        "transfer-encoding", "connection", "upgrade", "te", "expect",
    ]

    /// Creates settings; every parameter defaults to the client's behaviour without settings.
    public init(
        trust: Trust = .system, clientIdentity: ClientIdentity? = nil, pinnedPublicKeys: [PublicKeyPin] = [],
        proxy: Proxy = .environment, headers: HTTPHeaders = HTTPHeaders(), headerProvider: HeaderProvider? = nil,
        observer: Observer? = nil, minimumTLSVersion: TLSVersion = .tls1_2,
        httpVersion: HTTPVersionPreference = .automatic, connectTimeout: Duration? = nil,
        lowSpeedLimit: LowSpeedLimit? = nil
    ) {
        self.trust = trust
        self.clientIdentity = clientIdentity
        self.pinnedPublicKeys = pinnedPublicKeys
        self.proxy = proxy
        self.headers = headers
        self.headerProvider = headerProvider
        self.observer = observer
        self.minimumTLSVersion = minimumTLSVersion
        self.httpVersion = httpVersion
        self.connectTimeout = connectTimeout
        self.lowSpeedLimit = lowSpeedLimit
    }

    /// The lowest TLS version a connection may use.
    public enum TLSVersion: Sendable, Hashable {
        /// TLS 1.2 or later.
        case tls1_2
        /// TLS 1.3 only.
        case tls1_3
    }

    /// Which HTTP version requests ask for.
    public enum HTTPVersionPreference: Sendable, Hashable {
        /// HTTP/2 over TLS where the server offers it (HTTP/3 when libcurl has it), HTTP/1.1 otherwise.
        case automatic
        /// HTTP/1.1 only, for a proxy or gateway that mishandles HTTP/2 or long-lived HTTP/2 streams.
        case http1_1
        /// HTTP/2 over TLS where the server offers it, never HTTP/3; HTTP/1.1 in clear text.
        case http2
        /// HTTP/2 from the first byte in clear text (h2c, no upgrade), as gRPC without TLS needs; over TLS, HTTP/2
        /// where the server offers it.
        case http2PriorKnowledge
    }

    /// A speed floor: fewer than ``bytesPerSecond`` for ``duration`` in a row aborts the transfer with
    /// ``HTTPError/Code/tooSlow``. For an event stream, stay below its keep-alive rate (ResolveKit's server sends a
    /// comment of about 14 bytes every 15 s): one byte per second over 45 s ends a stream that missed three.
    public struct LowSpeedLimit: Sendable, Hashable {
        /// The floor, in bytes per second (at least 1).
        public var bytesPerSecond: Int
        /// How long the speed may stay under the floor (whole seconds, at least 1).
        public var duration: Duration

        /// Creates a floor.
        public init(bytesPerSecond: Int, duration: Duration) {
            self.bytesPerSecond = max(1, bytesPerSecond)
            self.duration = duration
        }
    }
}
