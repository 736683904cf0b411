import Synchronization

/// The writing side of one open event stream. The stream's own task and the task that appended a call for its
/// session (``ReferenceBackend/flushStreams(of:)``) both write through it, one at a time: whoever finds it free
/// writes every event after the cursor; whoever finds it busy leaves a note, and the writer goes round again
/// before it lets go. So a call goes out from the task that appended it, instead of after the stream's task is
/// scheduled behind every other session's work.
final class LiveStream: Sendable {
    private struct Writing: Sendable {
        var output: StreamOutput
        var cursor: StreamCursor
        var replaying = true
    }

    private struct State {
        /// `nil` while a task writes (that task holds it) and once the stream broke.
        var writing: Writing?
        /// A task is writing.
        var isHeld = false
        /// Another task found the stream busy: the writer goes round again.
        var missed = false
        var isOver = false
        /// ``close()`` waiting for the writer to let go.
        var closer: CheckedContinuation<Void, Never>?
    }

    let sessionID: String
    private let duplicatesReplay: Bool
    private let state: Mutex<State>

    init(sessionID: String, output: StreamOutput, cursor: StreamCursor, duplicatesReplay: Bool) {
        self.sessionID = sessionID
        self.duplicatesReplay = duplicatesReplay
        state = Mutex(State(writing: Writing(output: output, cursor: cursor)))
    }

    /// Writes `comment` (if any) and then every event `events` returns after the cursor, unless another task is
    /// writing (it then writes them, and skips the comment); `false` once the stream is over.
    func write(comment: [UInt8]? = nil, events: (StreamCursor) -> [StoredEvent]) async -> Bool {
        guard var writing = take() else { return !isOver }
        if let comment, !(await writing.output.send(comment, isEvent: false)) { return end() }
        repeat {
            let copies = writing.replaying && duplicatesReplay ? 2 : 1
            writing.replaying = false
            let batch = events(writing.cursor)
            for event in batch {
                for _ in 0..<copies {
                    guard await writing.output.send(event.frame, isEvent: true) else { return end() }
                }
                writing.cursor = .after(event.position)
            }
        } while !putBack(writing)
        return true
    }

    /// Stops every writer and returns once none is writing (so the response can end cleanly).
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                state.isOver = true
                if state.isHeld { state.closer = continuation }
                return !state.isHeld
            }
            if idle { continuation.resume() }
        }
    }

    private var isOver: Bool { state.withLock { $0.isOver } }

    private func take() -> Writing? {
        state.withLock { state in
            guard !state.isOver, let writing = state.writing else {
                state.missed = true
                return nil
            }
            state.writing = nil
            state.isHeld = true
            state.missed = false
            return writing
        }
    }

    /// Hands the stream back; `false` (keeping it) when another task found it busy meanwhile.
    private func putBack(_ writing: Writing) -> Bool {
        let (handedBack, closer) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            if state.missed, !state.isOver {
                state.missed = false
                return (false, nil)
            }
            state.writing = writing
            state.isHeld = false
            defer { state.closer = nil }
            return (true, state.closer)
        }
        closer?.resume()
        return handedBack
    }

    /// The stream broke or was dropped on purpose: nobody writes again.
    private func end() -> Bool {
        let closer = state.withLock { state in
            state.isOver = true
            state.isHeld = false
            defer { state.closer = nil }
            return state.closer
        }
        closer?.resume()
        return false
    }
}
