extension LoopbackRequestParser {
    /// Parses the request line and header fields once their terminating empty line has arrived.
    mutating func parseHead() -> Head? {
        // A request starts with its method's capital letters. Anything else, such as a TLS handshake sent to this
        // plain-HTTP server, is refused at once, as nginx does, so the client learns its mistake now instead of
        // waiting for a head that never comes.
        if position < buffer.count, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(buffer[position]) {
            fail(400, "Bad Request")
            return nil
        }
        guard let end = headEnd() else {
            if buffer.count - position > limits.maxHeadBytes { fail(431, "Request Header Fields Too Large") }
            return nil
        }
        guard end.terminatorEnd - position <= limits.maxHeadBytes else {
            fail(431, "Request Header Fields Too Large")
            return nil
        }
        let lines = buffer[position..<end.contentEnd].split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
        )
        .map { line -> ArraySlice<UInt8> in line.last == UInt8(ascii: "\r") ? line.dropLast() : line }
        position = end.terminatorEnd
        guard let requestLine = lines.first, let (method, target, version) = Self.requestLine(requestLine) else {
            fail(400, "Bad Request")
            return nil
        }
        var headers: [Header] = []
        for line in lines.dropFirst() {
            guard line.count <= limits.maxHeaderLineBytes, headers.count < limits.maxHeaderCount else {
                fail(431, "Request Header Fields Too Large")
                return nil
            }
            guard let header = Self.header(line) else {
                fail(400, "Bad Request")
                return nil
            }
            headers.append(header)
        }
        let connection = headers.filter { $0.name.lowercased() == "connection" }
            .flatMap { $0.value.lowercased().split(separator: ",").map(\.trimmingSpaces) }
        let keepAlive = version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        let expects = headers.contains { $0.name.lowercased() == "expect" && $0.value.lowercased() == "100-continue" }
        return Head(method: method, target: target, headers: headers, keepAlive: keepAlive, expectsContinue: expects)
    }

    /// Where the head's content ends and where its terminating empty line ends.
    private func headEnd() -> (contentEnd: Int, terminatorEnd: Int)? {
        var index = position
        let newline = UInt8(ascii: "\n")
        while index < buffer.count {
            if buffer[index] == newline {
                if index + 1 < buffer.count, buffer[index + 1] == newline { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == UInt8(ascii: "\r"), buffer[index + 2] == newline {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) -> (String, String, String)? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard method.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            version == "HTTP/1.1" || version == "HTTP/1.0"
        else { return nil }
        return (method, String(decoding: parts[1], as: UTF8.self), version)
    }

    private static func header(_ line: ArraySlice<UInt8>) -> Header? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
        let name = line[line.startIndex..<colon]
        let isToken = name.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
        guard isToken else { return nil }
        let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingSpaces
        return Header(name: String(decoding: name, as: UTF8.self), value: value)
    }
}
