extension LoopbackRequestParser {
    /// Parses a chunked body as far as the buffer allows; returns the request once the last chunk and trailers
    /// have arrived, or `nil` when more bytes are needed.
    mutating func parseChunked() -> Outcome? {
        while true {
            switch state {
            case .chunkSize(let head, let body):
                guard let line = takeLine() else { return state == .failed ? failureOutcome : nil }
                let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
                let digits = String(decoding: sizeText, as: UTF8.self).trimmingSpaces
                guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16) else {
                    fail(400, "Bad Request")
                    return failureOutcome
                }
                guard body.count + size <= limits.maxBodyBytes else {
                    fail(413, "Content Too Large")
                    return failureOutcome
                }
                state = size == 0 ? .trailers(head, body: body) : .chunkData(head, body: body, remaining: size)
            case .chunkData(let head, var body, let remaining):
                let available = min(remaining, buffer.count - position)
                guard available > 0 else { return nil }
                state = .failed
                body.append(contentsOf: buffer[position..<position + available])
                position += available
                state =
                    available == remaining
                    ? .chunkDataEnd(head, body: body) : .chunkData(head, body: body, remaining: remaining - available)
            case .chunkDataEnd(let head, let body):
                guard let line = takeLine() else { return state == .failed ? failureOutcome : nil }
                guard line.isEmpty else {
                    fail(400, "Bad Request")
                    return failureOutcome
                }
                state = .chunkSize(head, body: body)
            case .trailers(let head, let body):
                guard let line = takeLine() else { return state == .failed ? failureOutcome : nil }
                if line.isEmpty {
                    state = .head
                    return complete(head, body: body)
                }
            default:
                return nil
            }
        }
    }

    /// Takes one line (without its CRLF or LF) when it has arrived completely.
    private mutating func takeLine() -> ArraySlice<UInt8>? {
        guard let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.count - position > limits.maxHeaderLineBytes { fail(400, "Bad Request") }
            return nil
        }
        var line = buffer[position..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        position = newline + 1
        return line
    }
}
