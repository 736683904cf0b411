/// Reads one HTTP/1.1 response from bytes fed in pieces of any size: the status, `Retry-After`, whether the
/// connection may be reused, and the body framed by `Content-Length`, chunked coding or the end of the connection.
/// Pure: the transport feeds what the socket gave.
struct HTTPResponseReader {
    enum Output: Equatable {
        case needMore
        case complete(status: Int, retryAfter: String?, body: [UInt8], keepAlive: Bool)
        case failed(String)
    }

    private enum Framing {
        case length(Int)
        case chunkSize
        case chunkData(Int)
        case chunkDataEnd
        case trailer
        case untilClose
    }

    private enum Phase {
        case head
        case body(Framing)
        case done
    }

    static let maxHeadBytes = 16 * 1024
    static let maxBodyBytes = 64 * 1024

    private var phase = Phase.head
    private var buffer: [UInt8] = []
    private var status = 0
    private var retryAfter: String?
    private var keepAlive = true
    private var body: [UInt8] = []

    /// Takes the next bytes.
    mutating func feed(_ bytes: some Collection<UInt8>) -> Output {
        buffer.append(contentsOf: bytes)
        return advance()
    }

    /// The connection ended: completes a body that runs to the end of the connection, fails anything else.
    mutating func endOfInput() -> Output {
        if case .body(.untilClose) = phase {
            phase = .done
            return .complete(status: status, retryAfter: retryAfter, body: body, keepAlive: false)
        }
        return .failed("the connection closed before the response was complete")
    }

    private mutating func advance() -> Output {
        while true {
            switch phase {
            case .done:
                return .needMore
            case .head:
                guard let end = Self.find([13, 10, 13, 10], in: buffer) else {
                    return buffer.count > Self.maxHeadBytes ? .failed("the response head is over 16 KiB") : .needMore
                }
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                if let failure = readHead(head) { return .failed(failure) }
            case .body(let framing):
                guard let output = readBody(framing) else { return .needMore }
                return output
            }
        }
    }

    /// Reads the status line and header fields; returns a failure text, or `nil`.
    private mutating func readHead(_ head: [UInt8]) -> String? {
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map {
            String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self)
        }
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let code = Int(statusParts[1]),
            (100...599).contains(code)
        else { return "the status line \"\(lines[0].prefix(64))\" is not HTTP/1.x" }
        status = code
        keepAlive = statusParts[0] != "HTTP/1.0"
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return "a header line has no colon" }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            switch name {
            case "content-length":
                guard let parsed = Int(value), parsed >= 0 else { return "Content-Length is not a number" }
                length = parsed
            case "transfer-encoding": chunked = value.lowercased().hasSuffix("chunked")
            case "connection":
                keepAlive = value.lowercased() != "close" && (keepAlive || value.lowercased() == "keep-alive")
            case "retry-after": retryAfter = value
            default: break
            }
        }
        if (100..<200).contains(code) {
            // An interim answer (100 Continue): the real one follows.
            retryAfter = nil
            phase = .head
            return nil
        }
        if code == 204 || code == 304 {
            phase = .body(.length(0))
        } else if chunked {
            phase = .body(.chunkSize)
        } else if let length {
            phase = .body(.length(length))
        } else {
            phase = .body(.untilClose)
        }
        return nil
    }

    /// Moves through the body; `nil` when more bytes are needed.
    private mutating func readBody(_ framing: Framing) -> Output? {
        switch framing {
        case .length(let remaining):
            let take = min(remaining, buffer.count)
            keep(buffer.prefix(take))
            buffer.removeFirst(take)
            guard remaining - take == 0 else {
                phase = .body(.length(remaining - take))
                return nil
            }
            return finish()
        case .untilClose:
            keep(buffer)
            buffer.removeAll()
            return nil
        case .chunkSize:
            guard let end = Self.find([13, 10], in: buffer) else {
                return buffer.count > 1024 ? .failed("a chunk size line is over 1 KiB") : nil
            }
            let line = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 2)
            let digits = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: " \t") } ?? ""
            guard let size = Int(digits, radix: 16), size >= 0 else { return .failed("a chunk size is not hex") }
            phase = .body(size == 0 ? .trailer : .chunkData(size))
            return readBody(size == 0 ? .trailer : .chunkData(size))
        case .chunkData(let remaining):
            let take = min(remaining, buffer.count)
            keep(buffer.prefix(take))
            buffer.removeFirst(take)
            phase = .body(remaining - take == 0 ? .chunkDataEnd : .chunkData(remaining - take))
            return remaining - take == 0 ? readBody(.chunkDataEnd) : nil
        case .chunkDataEnd:
            guard buffer.count >= 2 else { return nil }
            guard buffer[0] == 13, buffer[1] == 10 else { return .failed("a chunk does not end with CRLF") }
            buffer.removeFirst(2)
            phase = .body(.chunkSize)
            return readBody(.chunkSize)
        case .trailer:
            guard let end = Self.find([13, 10], in: buffer) else { return nil }
            buffer.removeFirst(end + 2)
            return end == 0 ? finish() : readBody(.trailer)
        }
    }

    private mutating func finish() -> Output {
        phase = .done
        return .complete(status: status, retryAfter: retryAfter, body: body, keepAlive: keepAlive && buffer.isEmpty)
    }

    /// Keeps the body's first 64 KiB: only read to report a failure.
    private mutating func keep(_ bytes: some Collection<UInt8>) {
        body.append(contentsOf: bytes.prefix(max(0, Self.maxBodyBytes - body.count)))
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
