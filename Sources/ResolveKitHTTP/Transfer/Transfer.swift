import Synchronization

/// One exchange, shared by the task that awaits it and the curl thread that drives it. The state machine settles
/// their races; this class performs its actions (resuming continuations, asking the curl thread to abort or unpause)
/// outside the lock.
final class Transfer: Sendable {
    /// The status line and header fields of a response.
    struct ResponseHead: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var version: HTTPVersion
    }

    /// Identifies the transfer in the curl thread's commands.
    let id: Int
    /// What to send.
    let request: HTTPRequest
    /// The request's network settings, checked and with their providers called.
    let network: NetworkSettings.Prepared
    private let loop: CurlLoop
    private let machine: Mutex<StateMachine>
    /// The trailer fields so far; the curl thread sets them before the transfer completes.
    private let trailerFields = Mutex(HTTPHeaders())

    /// Creates a transfer for `request` that `loop` will drive.
    init(
        id: Int, request: HTTPRequest, network: NetworkSettings.Prepared = NetworkSettings.Prepared(), loop: CurlLoop,
        maxBufferedBytes: Int
    ) {
        self.id = id
        self.request = request
        self.network = network
        self.loop = loop
        self.machine = Mutex(StateMachine(maxBufferedBytes: maxBufferedBytes))
    }

    // MARK: Awaiting side

    /// Starts the exchange and waits for the response head.
    func execute() async throws(HTTPError) -> HTTPResponse {
        request.stallSignal?.onFire { [weak self] in self?.cancel(.stalledError) }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: StateMachine.HeadContinuation) in
                if let (continuation, error) = machine.withLock({ $0.start(continuation) }) {
                    continuation.resume(returning: .failure(error))
                } else if !loop.submit(.add(self)) {
                    cancel(.shutdownError)
                }
            }
        } onCancel: {
            cancel(.cancelledError)
        }
        let head = try result.get()
        return HTTPResponse(
            status: head.status, headers: head.headers, httpVersion: head.version,
            body: HTTPResponseBody(storage: HTTPResponseBody.Storage(transfer: self)))
    }

    /// Waits for the next body chunk; `nil` at the end of the body.
    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        var suspended = false
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: StateMachine.ChunkContinuation) in
                switch machine.withLock({ $0.next(continuation) }) {
                case .suspend:
                    suspended = true
                case .resume(let continuation, let result, let unpause):
                    if unpause { _ = loop.submit(.unpause(id)) }
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancel(.cancelledError)
        }
        // Only the curl thread's delivery resumes a waiting reader with bytes (an end or a failure carries none).
        if suspended, request.isLongLived, case .success(.some) = result {
            loop.streamChunksWaiting.subtract(1, ordering: .relaxed)
        }
        return try result.get()
    }

    /// Ends the exchange with `error`: fails whoever waits and aborts the curl transfer if it still runs. With a
    /// `timedOut` error the connection under it is shut down too: it stopped delivering, and over HTTP/2 the next
    /// request to the server would go over it again.
    func cancel(_ error: HTTPError) {
        let action = machine.withLock { $0.cancel(error) }
        action.head?.resume(returning: .failure(error))
        action.consumer?.resume(returning: .failure(error))
        if action.abortTransfer { _ = loop.submit(.cancel(id, error)) }
    }

    /// Whether the transfer is paused because the consumer is behind.
    var isPaused: Bool { machine.withLock { $0.isPaused } }

    /// The body bytes buffered now.
    var bufferedBytes: Int { machine.withLock { $0.bufferedBytes } }

    /// The most body bytes that were buffered at once.
    var highWaterMark: Int { machine.withLock { $0.highWaterMark } }

    // MARK: Curl thread side

    /// The final head arrived.
    func curlReceivedHead(_ head: ResponseHead) {
        let continuation = machine.withLock { $0.headReceived() }
        continuation?.resume(returning: .success(head))
    }

    /// The trailer fields that followed the body, once it was read to its end.
    var trailers: HTTPHeaders { trailerFields.withLock { $0 } }

    /// Trailer fields arrived after the body (all of them so far).
    func curlReceivedTrailers(_ trailers: HTTPHeaders) {
        trailerFields.withLock { $0 = trailers }
    }

    /// Body bytes arrived; returns the write callback's answer.
    func curlReceivedBody(_ bytes: [UInt8]) -> StateMachine.BodyAction {
        let action = machine.withLock { $0.bodyReceived(bytes) }
        if case .deliver(let consumer, let bytes) = action {
            if request.isLongLived { loop.streamChunksWaiting.add(1, ordering: .relaxed) }
            consumer.resume(returning: .success(bytes))
        }
        return action
    }

    /// The transfer ended, successfully when `error` is `nil`.
    func curlCompleted(_ error: HTTPError?) {
        switch machine.withLock({ $0.completed(error) }) {
        case .head(let continuation, let result): continuation.resume(returning: result)
        case .chunk(let continuation, let result): continuation.resume(returning: result)
        case nil: break
        }
    }
}
