import Synchronization

/// Reads lines a person types, from a ``TerminalIO`` in its normal (cooked) mode: the terminal echoes and edits,
/// the reader collects bytes up to a newline. It suspends without blocking a thread, so the runtime keeps working
/// while it waits. Do not read while an approval prompt runs (both would take the same keys).
public final class LineReader: Sendable {
    /// The terminal read from.
    public let terminal: TerminalIO
    /// The longest line kept, in bytes; longer input is cut there (the rest of the line is dropped).
    public let maxLineBytes: Int
    private let buffer = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))

    /// Creates a reader.
    /// - Parameters:
    ///   - terminal: where to read and write the prompt.
    ///   - maxLineBytes: the longest line kept (32 KiB by default, the longest message the backend takes).
    public init(terminal: TerminalIO, maxLineBytes: Int = 32_768) {
        self.terminal = terminal
        self.maxLineBytes = maxLineBytes
    }

    /// Writes `prompt` (if any) and returns the next line without its line ending; `nil` at the end of input (or
    /// when the calling task is cancelled) with nothing left to return.
    public func readLine(prompt: String? = nil) async -> String? {
        if let prompt { terminal.write(prompt) }
        while true {
            let (line, ended) = buffer.withLock { buffer -> (String?, Bool) in
                if let newline = buffer.bytes.firstIndex(of: 0x0A) {
                    var bytes = Array(buffer.bytes[..<newline])
                    buffer.bytes.removeSubrange(...newline)
                    if bytes.last == 0x0D { bytes.removeLast() }
                    return (String(decoding: bytes.prefix(maxLineBytes), as: UTF8.self), false)
                }
                guard buffer.ended else { return (nil, false) }
                defer { buffer.bytes = [] }
                return (
                    buffer.bytes.isEmpty ? nil : String(decoding: buffer.bytes.prefix(maxLineBytes), as: UTF8.self),
                    true
                )
            }
            if line != nil || ended { return line }
            if Task.isCancelled { return nil }
            let chunk = await terminal.readInput()
            buffer.withLock { buffer in
                guard let chunk else { return buffer.ended = true }
                buffer.bytes += chunk
                if buffer.bytes.count > maxLineBytes * 2, !buffer.bytes.contains(0x0A) {
                    buffer.bytes.removeSubrange(maxLineBytes...)
                }
            }
        }
    }
}
