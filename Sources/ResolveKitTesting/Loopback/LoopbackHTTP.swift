/// A request as the loopback server received it: method, target, headers and the whole body.
public struct LoopbackRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The raw request target, e.g. `/v1/sessions/abc/events?cursor=3`.
    public var target: String
    /// Header fields in arrival order; names as the client sent them.
    public var headers: [(name: String, value: String)]
    /// The request body (de-chunked when sent chunked).
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The target without its query string.
    public var path: String {
        // Searched as bytes: a search by `Character` segments the text into graphemes first.
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<mark])
    }

    /// The query parameters, percent-decoded (`+` is a space); a repeated name keeps its last value.
    public var query: [String: String] {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return [:] }
        var items: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecoded(parts[0])
            items[name] = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
        }
        return items
    }

    /// The first value of a header, matched without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.utf8.elementsEqual(name.utf8) { asciiLowercased($0) == asciiLowercased($1) } }?.value
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A response the loopback server sends: a status, headers, and a body that is either complete or streamed.
public struct LoopbackResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// A complete body, sent with `Content-Length`.
        case bytes([UInt8])
        /// A streamed body, sent with `Transfer-Encoding: chunked`. The closure writes chunks and returns to end
        /// the body cleanly; if it throws or calls ``LoopbackBodyWriter/abortConnection()``, the connection is
        /// closed without the terminating chunk (a mid-body drop, as a crashed server or a network fault does).
        /// When the client closes the connection, the task running the closure is cancelled, so a handler waiting
        /// for its next event ends promptly.
        case stream(@Sendable (any LoopbackBodyWriter) async throws -> Void)
    }

    /// The status code.
    public var status: Int
    /// Header fields; the server adds `Content-Length` or `Transfer-Encoding` and `Connection` itself.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Writes the chunks of a streamed response body.
public protocol LoopbackBodyWriter: Sendable {
    /// Sends `bytes` as one chunk and flushes it to the socket.
    /// - Throws: when the client has gone away; a streaming handler should then return.
    func write(_ bytes: [UInt8]) async throws
    /// Closes the connection at once, without finishing the body.
    func abortConnection() async
    /// Whether the client has closed its side of the connection.
    var isClientGone: Bool { get }
}

/// Answers one request. Handlers run concurrently, one task per connection.
public typealias LoopbackHandler = @Sendable (LoopbackRequest) async -> LoopbackResponse

/// `byte` with ASCII `A`–`Z` lowercased (header names are ASCII tokens; comparing them so allocates nothing).
private func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
