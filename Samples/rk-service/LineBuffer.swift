/// Splits a byte stream into lines without growing past a limit: a pure, incremental splitter.
///
/// Lines end at `\n` (a `\r` before it is dropped); blank lines are skipped. A line longer than `maxBytes` is
/// reported once as ``Line/tooLong`` and the rest of it, up to its newline, is discarded.
struct LineBuffer {
    /// One complete line, or the report that one was too long.
    enum Line: Equatable {
        case line([UInt8])
        case tooLong
    }

    let maxBytes: Int
    private var pending: [UInt8] = []
    private var discarding = false

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Takes the next chunk; returns the lines it completed.
    mutating func append(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let line = takeLine() { lines.append(line) }
                continue
            }
            guard !discarding else { continue }
            pending.append(byte)
            if pending.count > maxBytes {
                pending = []
                discarding = true
                lines.append(.tooLong)
            }
        }
        return lines
    }

    /// Ends the stream: a last line without a newline still counts.
    mutating func finish() -> [Line] {
        takeLine().map { [$0] } ?? []
    }

    private mutating func takeLine() -> Line? {
        defer {
            pending = []
            discarding = false
        }
        guard !discarding else { return nil }
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        let isBlank = pending.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return isBlank ? nil : .line(pending)
    }
}
