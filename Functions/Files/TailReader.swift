import Glibc
import ResolveKitCore

/// Reads the last lines of an open file without reading more than a byte budget from its end.
enum TailReader {
    /// The last `lineCount` lines among the last `byteLimit` bytes of `descriptor`, a regular file of `size` bytes.
    static func tail(
        of descriptor: Int32, path: String, size: Int, lineCount: Int, byteLimit: Int
    ) throws -> LogTail {
        let start = max(0, size - byteLimit)
        let window = try readFully(descriptor, path: path, from: start, count: size - start)
        let beginsAtLineStart = try start == 0 || readFully(descriptor, path: path, from: start - 1, count: 1) == [10]
        let split = lines(in: window, beginsAtLineStart: beginsAtLineStart)
        let kept = Array(split.lines.suffix(lineCount))
        return LogTail(
            path: path, lines: kept, fileSizeBytes: size, bytesRead: window.count,
            truncated: start > 0 || kept.count < split.lines.count || split.droppedPartialLine,
            reachedByteLimit: start > 0 && kept.count < lineCount)
    }

    /// Splits `bytes` at `\n`, dropping a final empty line and trailing `\r`. When the window starts mid-line, the
    /// partial first line is dropped too, unless it is all the window holds (a line longer than the byte limit).
    static func lines(in bytes: [UInt8], beginsAtLineStart: Bool) -> (lines: [String], droppedPartialLine: Bool) {
        var pieces = bytes.split(separator: 10, omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        var dropped = false
        if !beginsAtLineStart, pieces.count > 1 || pieces.first?.isEmpty == true {
            pieces.removeFirst()
            dropped = true
        }
        let lines = pieces.map { piece in
            String(decoding: piece.last == 13 ? piece.dropLast() : piece, as: UTF8.self)
        }
        return (lines, dropped)
    }

    private static func readFully(_ descriptor: Int32, path: String, from offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes[filled...].withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset + filled))
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 {
                throw ResolveKitFunctionError.hostFailure(
                    .current("read", path), hint: "Check that the host process may read it.")
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[0..<filled])
    }
}
