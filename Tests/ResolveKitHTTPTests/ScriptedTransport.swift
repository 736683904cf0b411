import ResolveKitHTTP
import Synchronization

/// An in-memory ``EventStreamTransport`` that answers each connect with the next scripted reply and records
/// every request. When the script runs out it answers with a stream that stays open.
final class ScriptedTransport: Sendable {
    enum Reply: Sendable {
        /// A non-2xx answer with an error body.
        case status(Int, body: String = "")
        /// A 200 answer whose body is `chunks`, then ends as `end` says.
        case stream([String], end: End)
        /// `connect` throws.
        case unreachable
        /// The server accepts the request and never answers: `connect` returns only when cancelled.
        case noAnswer
    }

    enum End: Sendable {
        case finish
        case fail
        case stayOpen
    }

    struct Broken: Error {}

    private struct State {
        var replies: [Reply]
        var requests: [EventStreamRequest] = []
        var current: AsyncThrowingStream<[UInt8], any Error>.Continuation?
        var cancellations = 0
    }

    private let state: Mutex<State>

    init(_ replies: [Reply]) {
        state = Mutex(State(replies: replies))
    }

    var transport: EventStreamTransport {
        EventStreamTransport { request in try await self.connect(request) }
    }

    var urls: [String] { state.withLock { $0.requests.map(\.url) } }
    var requests: [EventStreamRequest] { state.withLock { $0.requests } }
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// Sends `text` on the most recent open stream.
    func push(_ text: String) {
        let continuation = state.withLock { $0.current }
        continuation?.yield(Array(text.utf8))
    }

    private func connect(_ request: EventStreamRequest) async throws -> EventStreamConnection {
        let reply = state.withLock { state in
            state.requests.append(request)
            return state.replies.isEmpty ? .stream([], end: .stayOpen) : state.replies.removeFirst()
        }
        switch reply {
        case .unreachable:
            throw Broken()
        case .noAnswer:
            // A day on the real clock stands for "never"; the stream cancels the wait long before.
            try await Task.sleep(for: .seconds(86_400))
            throw Broken()
        case .status(let status, let body):
            return EventStreamConnection(
                status: status, body: Array(body.utf8), chunks: AsyncThrowingStream { $0.finish() },
                cancel: { self.state.withLock { $0.cancellations += 1 } })
        case .stream(let chunks, let end):
            let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            for chunk in chunks { continuation.yield(Array(chunk.utf8)) }
            switch end {
            case .finish: continuation.finish()
            case .fail: continuation.finish(throwing: Broken())
            case .stayOpen: break
            }
            state.withLock { $0.current = continuation }
            return EventStreamConnection(status: 200, chunks: stream) {
                self.state.withLock { $0.cancellations += 1 }
                continuation.finish()
            }
        }
    }
}
