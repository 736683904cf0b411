/// Collects the header lines libcurl reports and says when the final head is complete: interim `1xx` heads and,
/// when redirects are followed, the heads of `3xx` answers with a `Location` are skipped. Pure.
struct ResponseHeadParser {
    private(set) var status: Int?
    private(set) var version = HTTPVersion.http1_1
    private(set) var headers = HTTPHeaders()
    /// Whether the final head was seen; later lines (trailers) are ignored.
    private(set) var isComplete = false
    /// Whether 3xx heads with a `Location` are intermediate because libcurl follows them.
    let followsRedirects: Bool

    init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    /// Takes one header line (with its line ending); returns `true` when this line completed the final head.
    mutating func take(line bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard !isComplete else { return false }
        var trimmed = bytes[...]
        while let last = trimmed.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            trimmed = trimmed.dropLast()
        }
        let line = String(decoding: trimmed, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            startHead(line)
            return false
        }
        if line.isEmpty {
            guard let status, status >= 200 else { return false }
            if followsRedirects, (300..<400).contains(status), headers.contains(name: "Location") { return false }
            isComplete = true
            return true
        }
        if let first = line.first, first == " " || first == "\t" {
            return false  // obsolete line folding; libcurl never produces it for HTTP/2 and servers must not send it
        }
        guard let colon = line.firstIndex(of: ":") else { return false }
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        headers.add(name: String(line[..<colon]), value: String(value))
        return false
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
