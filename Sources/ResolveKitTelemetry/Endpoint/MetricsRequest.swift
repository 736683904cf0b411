/// What the metrics endpoint reads of a request: its method, path and `Accept` header. Pure.
struct MetricsRequest: Equatable {
    var method: String
    var path: String
    var accept: String?

    /// Reads a request head (up to, not including, its blank line); `nil` when it is not HTTP/1.x.
    init?(head: ArraySlice<UInt8>) {
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map {
            String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self)
        }
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        method = String(parts[0])
        let target = parts[1]
        path = String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
        accept = nil
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "accept" {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
                accept = accept.map { "\($0),\(value)" } ?? value
            }
        }
    }

    /// The response: the registry's text for `GET /metrics`, 404 for anything else.
    func response(registry: MetricsRegistry) -> [UInt8] {
        guard method == "GET", path == "/metrics" else {
            return Self.response(
                status: "404 Not Found", contentType: "text/plain; charset=utf-8",
                body: Array("Not found: the metrics are at GET /metrics\n".utf8))
        }
        let (contentType, body) = registry.exposition(accept: accept)
        return Self.response(status: "200 OK", contentType: contentType, body: body)
    }

    static func response(status: String, contentType: String, body: [UInt8]) -> [UInt8] {
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
