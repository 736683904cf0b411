public import ResolveKitHTTP
public import ResolveKitTelemetry

/// An ``OTLPTransport`` over the package's libcurl client: `http://` and `https://` endpoints, gRPC over HTTP/2, TLS
/// verified, proxies from the environment, connections kept alive between exports, and the same network settings
/// as the runtime's requests (a private CA, a client certificate, a proxy, extra headers) when given them.
///
/// ```swift
/// let client = HTTPClient()
/// let transport = CurlOTLPTransport(client: client, network: configuration.network)
/// ```
public struct CurlOTLPTransport: OTLPTransport {
    private let client: HTTPClient
    /// When the transport made its own clients: the one for urgent requests (a flush, the last export at
    /// shutdown), whose thread runs at normal priority. With the caller's client, every request goes through that.
    private let urgentClient: HTTPClient?
    private let ownsClient: Bool
    /// Trust, client identity, pins, proxy and headers of every export.
    public let network: NetworkSettings
    /// The largest answer body read; OTLP answers are a few bytes (a longer one is a `protocol_error`).
    private static let maxBodyBytes = 64 * 1024

    /// Creates a transport over `client`, which the caller shuts down.
    /// - Parameters:
    ///   - client: The client requests go through.
    ///   - network: The network settings of every export (the system's trust and the environment's proxy by
    ///     default).
    public init(client: HTTPClient, network: NetworkSettings = NetworkSettings()) {
        self.client = client
        self.urgentClient = nil
        self.ownsClient = false
        self.network = network
    }

    /// Creates a transport with clients of its own, shut down by ``shutdown()``. Exports go through one whose thread
    /// runs at the kernel's idle priority: on a busy machine, they wait for a core no tool call wants. Urgent ones
    /// (``OTLPRequest/isUrgent``: a flush, the last export at shutdown) go through a second, whose thread starts here
    /// at the caller's priority, so that a service asked to stop while its cores are busy still sends them.
    public init(network: NetworkSettings = NetworkSettings()) {
        self.client = HTTPClient(configuration: HTTPClient.Configuration(userAgent: nil, isBackground: true))
        let urgentClient = HTTPClient(configuration: HTTPClient.Configuration(userAgent: nil))
        urgentClient.startThread()
        self.urgentClient = urgentClient
        self.ownsClient = true
        self.network = network
    }

    /// Posts the request with its deadline; any status is a result. A gRPC call goes over HTTP/2 (for `http://`,
    /// in clear text from the first byte) on a connection of its own, and its `grpc-status` is read from the
    /// trailers, or from the head when the answer is only a head.
    /// - Throws: ``TelemetryError``: `connect_failed`, `timed_out`, `protocol_error`, `shutdown`, with the
    ///   `HTTPError` as the underlying cause.
    public func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        var headers = HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        var network = network
        if request.isGRPC { network.httpVersion = .http2PriorKnowledge }
        let connect = min(request.timeout, .seconds(10))
        var http = HTTPRequest(
            method: .post, url: request.url, headers: headers, body: request.body, connectTimeout: connect,
            timeout: request.timeout, network: network)
        // libcurl 7.88 fails the next request on an HTTP/2 connection a gRPC server answered (CURLE_HTTP2): each
        // call gets its own; exports are seconds apart.
        http.closesConnection = request.isGRPC
        do {
            let response = try await (request.isUrgent ? urgentClient ?? client : client).execute(http)
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            var answer = OTLPResponse(status: response.status, retryAfter: response.headers["Retry-After"], body: body)
            if request.isGRPC {
                let trailers = response.body.trailers
                let fields = trailers["grpc-status"] == nil ? response.headers : trailers
                answer.grpcStatus = GRPCStatus(
                    status: fields["grpc-status"], message: fields["grpc-message"],
                    details: fields["grpc-status-details-bin"])
            }
            return answer
        } catch {
            throw Self.telemetryError(error, url: request.url)
        }
    }

    /// Shuts the clients down when the transport created them.
    public func shutdown() async {
        guard ownsClient else { return }
        await client.shutdown()
        await urgentClient?.shutdown()
    }

    static func telemetryError(_ error: HTTPError, url: String) -> TelemetryError {
        let code: TelemetryError.Code =
            switch error.code {
            case .connectFailed, .tlsFailed: .connectFailed
            case .timedOut: .timedOut
            case .shutdown, .cancelled: .shutdown
            case .invalidRequest: .invalidConfiguration
            default: .protocolError
            }
        return TelemetryError(code, "OTLP export to \(EndpointURL.redacted(url)) failed", underlying: error)
    }
}
