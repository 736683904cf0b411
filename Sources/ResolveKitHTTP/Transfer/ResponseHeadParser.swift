/// Collects the header lines libcurl reports and says when the final head is complete: interim `1xx` heads and,
/// when redirects are followed, the heads of `3xx` answers with a `Location` are skipped. Pure.
struct ResponseHeadParser {
    private(set) var status: Int?
    private(set) var version = HTTPVersion.http1_1
    private(set) var headers = HTTPHeaders()
    /// Whether the final head was seen; later lines are trailers.
    private(set) var isComplete = false
    /// The trailer fields that came after the body (gRPC's `grpc-status`).
    private(set) var trailers = HTTPHeaders()
    /// Whether 3xx heads with a `Location` are intermediate because libcurl follows them.
    let followsRedirects: Bool

    init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    /// Takes one header line (with its line ending); returns `true` when this line completed the final head. Read
    /// as bytes: the curl thread runs this for every header of every response, and a field needs no `String` but
    /// its name and value.
    mutating func take(line bytes: some BidirectionalCollection<UInt8>) -> Bool {
        var line = bytes[...]
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            line = line.dropLast()
        }
        guard !isComplete else {
            if let (name, value) = Self.field(line) { trailers.add(name: name, value: value) }
            return false
        }
        if line.starts(with: "HTTP/".utf8) {
            startHead(String(decoding: line, as: UTF8.self))
            return false
        }
        guard let first = line.first else {
            guard let status, status >= 200 else { return false }
            if followsRedirects, (300..<400).contains(status), headers.contains(name: "Location") { return false }
            isComplete = true
            return true
        }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            return false  // obsolete line folding; libcurl never produces it for HTTP/2 and servers must not send it
        }
        guard let (name, value) = Self.field(line) else { return false }
        headers.add(name: name, value: value)
        return false
    }

    /// The name and value of a `name: value` line (without its line ending).
    private static func field<Line: BidirectionalCollection<UInt8>>(_ line: Line) -> (String, String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let value = line[line.index(after: colon)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return (String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// The head so far, for a transfer that ended without a terminating empty line.
    var partialHead: Transfer.ResponseHead? {
        status.map { Transfer.ResponseHead(status: $0, headers: headers, version: version) }
    }

    private mutating func startHead(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 2)
        headers = HTTPHeaders()
        status = parts.count > 1 ? Int(parts[1]) : nil
        switch parts.first {
        case "HTTP/1.0": version = .http1_0
        case "HTTP/2", "HTTP/2.0": version = .http2
        case "HTTP/3", "HTTP/3.0": version = .http3
        default: version = .http1_1
        }
    }
}
