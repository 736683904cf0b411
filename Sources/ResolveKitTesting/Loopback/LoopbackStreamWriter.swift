import Synchronization

/// The server's ``LoopbackBodyWriter``: each write becomes one chunk of a chunked body, flushed before it returns.
final class LoopbackStreamWriter: LoopbackBodyWriter {
    private struct State {
        var clientGone = false
        var aborted = false
    }

    private let socket: LoopbackSocket
    private let state = Mutex(State())

    /// Creates a writer for `socket`.
    init(socket: LoopbackSocket) {
        self.socket = socket
    }

    func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        let (gone, aborted) = state.withLock { ($0.clientGone, $0.aborted) }
        if aborted { throw LoopbackServerError(code: .connectionClosed, message: "The connection was aborted") }
        if gone { throw LoopbackServerError(code: .connectionClosed, message: "The client has gone away") }
        var frame = Array(String(bytes.count, radix: 16).utf8) + [13, 10]
        frame.reserveCapacity(frame.count + bytes.count + 2)
        frame.append(contentsOf: bytes)
        frame.append(contentsOf: [13, 10])
        do {
            try await socket.writeAll(frame)
        } catch let error as LoopbackServerError {
            markClientGone()
            throw error
        }
    }

    func abortConnection() async {
        state.withLock { $0.aborted = true }
        socket.shutdownBoth()
    }

    var isClientGone: Bool { state.withLock { $0.clientGone } }

    /// Whether ``abortConnection()`` was called.
    var isAborted: Bool { state.withLock { $0.aborted } }

    /// Records that the client closed its side.
    func markClientGone() {
        state.withLock { $0.clientGone = true }
    }
}
