import ResolveKitTesting
import Synchronization

/// A body writer that records the chunks of a streamed response and hands them to the test one by one.
final class RecordingBodyWriter: LoopbackBodyWriter {
    private struct State {
        var chunks: [[UInt8]] = []
        var aborted = false
        var clientGone = false
    }

    private let state = Mutex(State())
    private let stream: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
    }

    func write(_ bytes: [UInt8]) async throws {
        let gone = state.withLock { state in
            if !state.clientGone, !state.aborted { state.chunks.append(bytes) }
            return state.clientGone || state.aborted
        }
        if gone { throw CancellationError() }
        continuation.yield(bytes)
    }

    func abortConnection() async {
        state.withLock { $0.aborted = true }
        continuation.finish()
    }

    var isClientGone: Bool { state.withLock { $0.clientGone } }

    /// Simulates the client closing its side.
    func disconnect() { state.withLock { $0.clientGone = true } }

    var wasAborted: Bool { state.withLock { $0.aborted } }

    /// Everything written so far, as text.
    var text: String { state.withLock { String(decoding: $0.chunks.joined(), as: UTF8.self) } }

    /// Marks the end of the body (called by the harness when the handler returned).
    func finish() { continuation.finish() }

    /// The chunks in write order; ends when the body ends or is aborted.
    var chunks: AsyncStream<[UInt8]> { stream }
}
