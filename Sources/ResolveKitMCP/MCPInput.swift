import Foundation
import Glibc

/// The protocol's input: newline-delimited messages read from a descriptor (stdin) on a thread of its own, so no
/// task of the cooperative pool blocks. A line longer than the limit is reported once and skipped to its end.
enum MCPInput {
    enum Line: Sendable, Equatable {
        case message([UInt8])
        case tooLong
    }

    static func lines(fd: Int32, maxBytes: Int) -> AsyncStream<Line> {
        let (stream, continuation) = AsyncStream.makeStream(of: Line.self)
        let thread = Thread {
            var pending: [UInt8] = []
            var skipping = false
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            reading: while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                var start = 0
                while start < count {
                    guard let newline = chunk[start..<count].firstIndex(of: UInt8(ascii: "\n")) else {
                        if !skipping { pending += chunk[start..<count] }
                        break
                    }
                    if !skipping { pending += chunk[start..<newline] }
                    // A line that arrived whole in one read is held to the limit as well.
                    let line: Line? = skipping ? nil : pending.count > maxBytes ? .tooLong : .message(pending)
                    skipping = false
                    pending = []
                    start = newline + 1
                    if let line, case .terminated = continuation.yield(line) { break reading }
                }
                if !skipping, pending.count > maxBytes {
                    skipping = true
                    pending = []
                    if case .terminated = continuation.yield(.tooLong) { break reading }
                }
            }
            if !skipping, !pending.isEmpty { continuation.yield(.message(pending)) }
            continuation.finish()
        }
        thread.name = "mcp stdin"
        thread.start()
        return stream
    }
}
