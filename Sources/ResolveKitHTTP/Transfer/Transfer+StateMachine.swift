extension Transfer {
    /// The life of one exchange as seen by both sides: the awaiting task (execute, body iteration, cancellation)
    /// and the curl thread (head, body chunks, completion). Pure; ``Transfer`` performs the actions outside its lock.
    ///
    /// Whatever order the inputs race in, each continuation is resumed exactly once and the curl transfer is
    /// aborted at most once.
    struct StateMachine {
        typealias HeadContinuation = CheckedContinuation<Result<ResponseHead, HTTPError>, Never>
        typealias ChunkContinuation = CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>

        private enum State {
            /// Created; `execute` has not registered its continuation yet.
            case initial
            /// Submitted to the curl thread; waiting for the status line and headers.
            case waitingForHead(HeadContinuation)
            /// The head was delivered; the body is flowing.
            case streaming(Streaming)
            /// Nothing more will happen; later reads get `pendingError` once, then the end.
            case finished(pendingError: HTTPError?)
        }

        private struct Streaming {
            var chunks: [[UInt8]] = []
            var bufferedBytes = 0
            var consumer: ChunkContinuation?
            var paused = false
            /// Set once curl is done: `.success` for a complete body, `.failure` for a failed transfer.
            var completion: Result<Void, HTTPError>?
        }

        /// What the curl write callback should answer.
        enum BodyAction {
            /// Take the bytes (they were buffered).
            case accept
            /// Take the bytes and resume the waiting consumer with them.
            case deliver(ChunkContinuation, [UInt8])
            /// Pause the transfer; curl keeps the bytes and offers them again after the unpause.
            case pause
            /// The exchange is over (cancelled); abort the transfer.
            case abort
        }

        /// What to do when the consumer asks for the next chunk.
        enum NextAction {
            /// Resume the consumer with a result; `unpause` asks the curl thread to resume a paused transfer.
            case resume(ChunkContinuation, Result<[UInt8]?, HTTPError>, unpause: Bool)
            /// The consumer waits for the curl thread.
            case suspend
        }

        /// What to do when the exchange is cancelled.
        struct CancelAction {
            /// A continuation to fail with the cancellation error.
            var head: HeadContinuation?
            /// A waiting consumer to fail with the cancellation error.
            var consumer: ChunkContinuation?
            /// Whether the curl transfer may still be running and must be aborted.
            var abortTransfer: Bool
        }

        private var state = State.initial
        /// The most body bytes buffered before the transfer is paused.
        let maxBufferedBytes: Int
        /// The highest number of bytes that were buffered at once (observability for tests).
        private(set) var highWaterMark = 0

        /// Creates the machine in its initial state.
        init(maxBufferedBytes: Int) {
            self.maxBufferedBytes = maxBufferedBytes
        }

        /// `execute` registers its continuation. Returns it back with an error when the exchange was already
        /// cancelled; otherwise `nil`, and the owner submits the transfer.
        mutating func start(_ continuation: HeadContinuation) -> (HeadContinuation, HTTPError)? {
            switch state {
            case .initial:
                state = .waitingForHead(continuation)
                return nil
            case .finished(let error):
                state = .finished(pendingError: nil)
                return (continuation, error ?? .cancelledError)
            case .waitingForHead, .streaming:
                preconditionFailure("execute started a transfer twice")
            }
        }

        /// The curl thread saw the final head; returns the continuation to resume with it, if still wanted.
        mutating func headReceived() -> HeadContinuation? {
            guard case .waitingForHead(let continuation) = state else { return nil }
            state = .streaming(Streaming())
            return continuation
        }

        /// The curl thread received body bytes.
        mutating func bodyReceived(_ bytes: [UInt8]) -> BodyAction {
            guard case .streaming(var streaming) = state else { return .abort }
            if let consumer = streaming.consumer {
                streaming.consumer = nil
                state = .streaming(streaming)
                return .deliver(consumer, bytes)
            }
            if streaming.bufferedBytes >= maxBufferedBytes {
                streaming.paused = true
                state = .streaming(streaming)
                return .pause
            }
            state = .finished(pendingError: nil)  // drop the enum's reference so the append does not copy
            streaming.chunks.append(bytes)
            streaming.bufferedBytes += bytes.count
            highWaterMark = max(highWaterMark, streaming.bufferedBytes)
            state = .streaming(streaming)
            return .accept
        }

        /// The curl thread finished the transfer (`nil` error: the body is complete). Returns the continuation to
        /// resume and its result, if one is waiting.
        mutating func completed(_ error: HTTPError?) -> Completion? {
            switch state {
            case .initial:
                state = .finished(pendingError: error ?? .cancelledError)
                return nil
            case .waitingForHead(let continuation):
                let failure =
                    error ?? HTTPError(code: .protocolError, message: "The transfer ended without a response head")
                state = .finished(pendingError: nil)
                return .head(continuation, .failure(failure))
            case .streaming(var streaming):
                if let consumer = streaming.consumer {
                    state = .finished(pendingError: nil)
                    return .chunk(consumer, error.map { .failure($0) } ?? .success(nil))
                }
                streaming.completion = error.map { .failure($0) } ?? .success(())
                state = .streaming(streaming)
                return nil
            case .finished:
                return nil
            }
        }

        /// A continuation to resume because the transfer completed.
        enum Completion {
            /// `execute` is still waiting.
            case head(HeadContinuation, Result<ResponseHead, HTTPError>)
            /// The consumer is waiting for a chunk.
            case chunk(ChunkContinuation, Result<[UInt8]?, HTTPError>)
        }

        /// The consumer asks for the next chunk; buffered chunks are handed over together.
        mutating func next(_ consumer: ChunkContinuation) -> NextAction {
            switch state {
            case .initial, .waitingForHead:
                preconditionFailure("the body was read before its head arrived")
            case .finished(let error):
                state = .finished(pendingError: nil)
                return .resume(consumer, error.map { .failure($0) } ?? .success(nil), unpause: false)
            case .streaming(var streaming):
                if !streaming.chunks.isEmpty {
                    let chunk = Self.concatenate(streaming.chunks, count: streaming.bufferedBytes)
                    let unpause = streaming.paused
                    streaming.chunks = []
                    streaming.bufferedBytes = 0
                    streaming.paused = false
                    state = .streaming(streaming)
                    return .resume(consumer, .success(chunk), unpause: unpause)
                }
                if let completion = streaming.completion {
                    state = .finished(pendingError: nil)
                    switch completion {
                    case .success: return .resume(consumer, .success(nil), unpause: false)
                    case .failure(let error): return .resume(consumer, .failure(error), unpause: false)
                    }
                }
                precondition(streaming.consumer == nil, "two consumers iterate one body at once")
                streaming.consumer = consumer
                state = .streaming(streaming)
                return .suspend
            }
        }

        /// The awaiting task was cancelled, the body was dropped, or the client shuts down.
        mutating func cancel(_ error: HTTPError) -> CancelAction {
            switch state {
            case .initial:
                state = .finished(pendingError: error)
                return CancelAction(abortTransfer: false)
            case .waitingForHead(let continuation):
                state = .finished(pendingError: nil)
                return CancelAction(head: continuation, abortTransfer: true)
            case .streaming(let streaming):
                state = .finished(pendingError: streaming.consumer == nil ? error : nil)
                return CancelAction(consumer: streaming.consumer, abortTransfer: streaming.completion == nil)
            case .finished:
                return CancelAction(abortTransfer: false)
            }
        }

        private static func concatenate(_ chunks: [[UInt8]], count: Int) -> [UInt8] {
            if chunks.count == 1 { return chunks[0] }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for chunk in chunks { bytes.append(contentsOf: chunk) }
            return bytes
        }

        /// Whether the transfer is paused because the consumer is behind.
        var isPaused: Bool {
            if case .streaming(let streaming) = state { return streaming.paused }
            return false
        }

        /// The body bytes buffered right now.
        var bufferedBytes: Int {
            if case .streaming(let streaming) = state { return streaming.bufferedBytes }
            return 0
        }
    }
}
