import Foundation

/// A response read off a raw socket.
struct RawHTTPResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// The chunk sizes of a chunked body, in order.
    var chunkSizes: [Int]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Parses one complete response from the front of `bytes`, returning it and the bytes it used.
    static func parse(_ bytes: [UInt8]) -> (RawHTTPResponse, Int)? {
        let text = bytes
        guard let headEnd = find([13, 10, 13, 10], in: text, from: 0) else { return nil }
        let lines = String(decoding: text[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        let headers = lines.dropFirst().map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [], chunkSizes: [])
        var position = headEnd + 4
        if response.header("Transfer-Encoding") == "chunked" {
            while true {
                guard let lineEnd = find([13, 10], in: text, from: position) else { return nil }
                let size = Int(String(decoding: text[position..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                position = lineEnd + 2
                guard text.count >= position + size + 2 else { return nil }
                if size == 0 { return (response, position + 2) }
                response.chunkSizes.append(size)
                response.body += text[position..<position + size]
                position += size + 2
            }
        }
        let length = Int(response.header("Content-Length") ?? "0") ?? 0
        guard text.count >= position + length else { return nil }
        response.body = Array(text[position..<position + length])
        return (response, position + length)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
