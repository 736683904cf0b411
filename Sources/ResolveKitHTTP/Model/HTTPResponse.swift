/// A response whose head has arrived; its body streams through ``body``.
///
/// Any status is a result here, not an error; use ``checkStatus(maxBodyBytes:)`` or
/// ``HTTPClient/send(_:maxBodyBytes:)`` to turn non-2xx answers into ``HTTPError/Code/httpStatus``.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The HTTP version the server answered with.
    public var httpVersion: HTTPVersion
    /// The body, read chunk by chunk. Dropping it (and every iterator) aborts the transfer if it is still running.
    public var body: HTTPResponseBody

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders, httpVersion: HTTPVersion, body: HTTPResponseBody) {
        self.status = status
        self.headers = headers
        self.httpVersion = httpVersion
        self.body = body
    }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Returns normally for a 2xx status; otherwise reads up to `maxBodyBytes` of the body and throws
    /// ``HTTPError/Code/httpStatus`` carrying the status and that (possibly cut) body.
    /// - Throws: ``HTTPError`` with code `httpStatus`, or a transport error met while reading the error body.
    public func checkStatus(maxBodyBytes: Int = 64 * 1024) async throws(HTTPError) {
        guard !isSuccess else { return }
        throw .httpStatus(status, body: try await body.collect(upTo: maxBodyBytes, truncating: true))
    }
}

/// A response read to its end, as ``HTTPClient/send(_:maxBodyBytes:)`` returns it.
public struct HTTPCollectedResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The HTTP version the server answered with.
    public var httpVersion: HTTPVersion
    /// The whole body.
    public var body: [UInt8]

    /// Creates a collected response.
    public init(status: Int, headers: HTTPHeaders, httpVersion: HTTPVersion, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.httpVersion = httpVersion
        self.body = body
    }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Returns `self` for a 2xx status.
    /// - Throws: ``HTTPError`` with code ``HTTPError/Code/httpStatus`` carrying the status and body otherwise.
    public func requireSuccess() throws(HTTPError) -> HTTPCollectedResponse {
        guard isSuccess else { throw .httpStatus(status, body: body) }
        return self
    }
}
