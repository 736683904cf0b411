/// An incremental HTTP/1.1 request parser: bytes in, whole requests out. Pure; the connection does the I/O.
///
/// Handles keep-alive and pipelining (leftover bytes stay for the next request), bodies by `Content-Length` or
/// `Transfer-Encoding: chunked`, and answers oversize heads with 431 and malformed ones with 400.
struct LoopbackRequestParser {
    /// Size limits; a request past them is refused.
    struct Limits: Sendable {
        /// The request line and header fields together, terminator included.
        var maxHeadBytes = 16 * 1024
        /// One header line.
        var maxHeaderLineBytes = 8 * 1024
        /// The number of header fields.
        var maxHeaderCount = 100
        /// The (de-chunked) body.
        var maxBodyBytes = 64 * 1024 * 1024
    }

    /// What one parsing step produced.
    enum Outcome: Equatable {
        /// More bytes are needed.
        case needMore
        /// A complete request, and whether the connection stays open after the response.
        case request(method: String, target: String, headers: [Header], body: [UInt8], keepAlive: Bool)
        /// The request is unacceptable; answer `status` and close the connection.
        case failure(status: Int, reason: String)
    }

    /// One header field.
    struct Header: Equatable {
        var name: String
        var value: String
    }

    struct Head: Equatable {
        var method: String
        var target: String
        var headers: [Header]
        var keepAlive: Bool
        var expectsContinue: Bool
    }

    enum State: Equatable {
        case head
        case fixedBody(Head, remaining: Int)
        case chunkSize(Head, body: [UInt8])
        case chunkData(Head, body: [UInt8], remaining: Int)
        case chunkDataEnd(Head, body: [UInt8])
        case trailers(Head, body: [UInt8])
        case failed
    }

    let limits: Limits
    var state = State.head
    var buffer: [UInt8] = []
    var position = 0
    /// Set when a request with `Expect: 100-continue` waits for its body; the connection sends the interim answer.
    private(set) var wantsContinue = false

    /// Creates a parser with `limits`.
    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds received bytes.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        } else if position > 64 * 1024, position > buffer.count / 2 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Clears ``wantsContinue`` and returns whether the interim `100 Continue` should be sent now.
    mutating func takeContinue() -> Bool {
        defer { wantsContinue = false }
        return wantsContinue
    }

    /// Whether no bytes of a next request have arrived yet.
    var isIdle: Bool { state == .head && position == buffer.count }

    /// Parses as far as the buffered bytes allow.
    mutating func next() -> Outcome {
        while true {
            switch state {
            case .failed:
                return .needMore
            case .head:
                guard let head = parseHead() else {
                    if case .failed = state { return failureOutcome }
                    return .needMore
                }
                if case .failed = state { return failureOutcome }
                if let outcome = startBody(head) { return outcome }
            case .fixedBody(let head, let remaining):
                guard buffer.count - position >= remaining else { return .needMore }
                let body = Array(buffer[position..<position + remaining])
                position += remaining
                state = .head
                return complete(head, body: body)
            case .chunkSize, .chunkData, .chunkDataEnd, .trailers:
                guard let outcome = parseChunked() else { return .needMore }
                return outcome
            }
        }
    }

    var pendingFailure: (status: Int, reason: String) = (400, "Bad Request")

    var failureOutcome: Outcome { .failure(status: pendingFailure.status, reason: pendingFailure.reason) }

    mutating func fail(_ status: Int, _ reason: String) {
        state = .failed
        pendingFailure = (status, reason)
    }

    func complete(_ head: Head, body: [UInt8]) -> Outcome {
        .request(method: head.method, target: head.target, headers: head.headers, body: body, keepAlive: head.keepAlive)
    }

    private mutating func startBody(_ head: Head) -> Outcome? {
        let encodings = head.headers.filter { $0.name.lowercased() == "transfer-encoding" }
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }
        if !encodings.isEmpty {
            let codings = encodings.flatMap { $0.value.split(separator: ",") }.map {
                $0.trimmingSpaces.lowercased()
            }
            guard codings.last == "chunked", lengths.isEmpty else {
                fail(400, "Bad Request")
                return failureOutcome
            }
            state = .chunkSize(head, body: [])
            wantsContinue = head.expectsContinue
            return nil
        }
        let values = Set(lengths.map { $0.value.trimmingSpaces })
        guard values.count <= 1 else {
            fail(400, "Bad Request")
            return failureOutcome
        }
        guard let text = values.first else {
            state = .head
            return complete(head, body: [])
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text) else {
            fail(400, "Bad Request")
            return failureOutcome
        }
        guard length <= limits.maxBodyBytes else {
            fail(413, "Content Too Large")
            return failureOutcome
        }
        if length == 0 {
            state = .head
            return complete(head, body: [])
        }
        state = .fixedBody(head, remaining: length)
        wantsContinue = head.expectsContinue
        return nil
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without leading and trailing spaces and tabs.
    ///
    /// Spaces and tabs are single bytes that never occur inside another character's UTF-8, so the bytes between
    /// the first and the last other byte are the text; a token of a few hundred bytes is not rebuilt scalar by scalar.
    var trimmingSpaces: String {
        let bytes = utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
