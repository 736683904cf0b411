import Glibc
import Synchronization

/// Where the answers to one input's requests go: stdout, or one socket connection.
///
/// Writes are serialised, so answers from concurrent requests never interleave. A connection's descriptor is
/// closed once its reader has finished and every request read from it has been answered.
final class ReplySink: Sendable {
    private struct State {
        var pending = 0
        var readerFinished = false
        var closed = false
        var onReaderFinished: [@Sendable () -> Void] = []
    }

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let state = Mutex(State())

    /// - Parameters:
    ///   - fd: the descriptor answers are written to.
    ///   - ownsDescriptor: whether to close `fd` when the input is done (a socket), or leave it open (stdout).
    init(fd: Int32, ownsDescriptor: Bool) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
    }

    /// Notes a request read from this input, whose answer is still to come.
    func expectAnswer() {
        state.withLock { $0.pending += 1 }
    }

    /// Writes `line` and a newline; a peer that went away is ignored (its answer is dropped).
    func send(_ line: String) {
        state.withLock { state in
            if !state.closed { Self.writeAll(fd, Array((line + "\n").utf8)) }
            state.pending -= 1
            closeIfDone(&state)
        }
    }

    /// The reader reached the end of this input; no more requests will come from it.
    func finishReading() {
        let handlers = state.withLock { state in
            state.readerFinished = true
            closeIfDone(&state)
            defer { state.onReaderFinished = [] }
            return state.onReaderFinished
        }
        for handler in handlers { handler() }
    }

    /// Writes a line that answers no request (an event for a subscriber); dropped once the sink is closed.
    func push(_ line: String) {
        state.withLock { state in
            if !state.closed { Self.writeAll(fd, Array((line + "\n").utf8)) }
        }
    }

    /// Keeps the connection open for pushed lines until ``release()``, even after its reader finished.
    func hold() {
        state.withLock { $0.pending += 1 }
    }

    /// Ends a ``hold()``.
    func release() {
        state.withLock { state in
            state.pending -= 1
            closeIfDone(&state)
        }
    }

    /// Runs `handler` once the reader has finished (at once if it already has).
    func whenReadingEnds(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.readerFinished { return true }
            state.onReaderFinished.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Stops reading from a socket (the reader sees end-of-input) while answers can still be written.
    func shutdownReading() {
        state.withLock { state in
            if ownsDescriptor, !state.closed { _ = shutdown(fd, Int32(SHUT_RD)) }
        }
    }

    private func closeIfDone(_ state: inout State) {
        guard ownsDescriptor, state.readerFinished, state.pending <= 0, !state.closed else { return }
        state.closed = true
        close(fd)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == ENOTSOCK {
                let plain = bytes.withUnsafeBytes { raw in
                    Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                }
                if plain > 0 { offset += plain; continue }
                if plain < 0, errno == EINTR { continue }
                return
            }
            if written > 0 { offset += written; continue }
            if written < 0, errno == EINTR { continue }
            return
        }
    }
}
