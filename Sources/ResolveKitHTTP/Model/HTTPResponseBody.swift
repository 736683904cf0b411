/// A response body as an asynchronous sequence of byte chunks, read once.
///
/// The transfer is paused while the reader is behind (bounded by the client's `maxBufferedBodyBytes`) and resumed
/// when it catches up. Cancelling the reading task, or dropping the iterator before the end, aborts the transfer
/// and frees its connection.
public struct HTTPResponseBody: AsyncSequence, Sendable {
    /// A chunk of body bytes.
    public typealias Element = [UInt8]
    /// Reading fails with ``HTTPError``.
    public typealias Failure = HTTPError

    /// Keeps the transfer alive while a body value exists and aborts it when the last one goes away.
    final class Storage: Sendable {
        let transfer: Transfer

        init(transfer: Transfer) {
            self.transfer = transfer
        }

        deinit {
            transfer.cancel(.cancelledError)
        }
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    /// Reads the chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        /// Reading fails with ``HTTPError``.
        public typealias Failure = HTTPError

        private let storage: Storage
        private let token: Token

        /// Aborts the transfer when the iterator is dropped before the end.
        private final class Token: Sendable {
            let transfer: Transfer
            init(transfer: Transfer) { self.transfer = transfer }
            deinit { transfer.cancel(.cancelledError) }
        }

        init(storage: Storage) {
            self.storage = storage
            self.token = Token(transfer: storage.transfer)
        }

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``HTTPError`` when the transfer fails, times out, or the task is cancelled.
        public mutating func next() async throws(HTTPError) -> [UInt8]? {
            try await storage.transfer.nextChunk()
        }

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``HTTPError`` when the transfer fails, times out, or the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(HTTPError) -> [UInt8]? {
            try await storage.transfer.nextChunk()
        }
    }

    /// Creates the iterator; iterate a body only once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: storage)
    }

    /// Reads the whole body.
    /// - Throws: ``HTTPError`` with code ``HTTPError/Code/bodyTooLarge`` (the transfer is aborted) when the body is
    ///   longer than `maxBytes`, or the transfer's own error.
    public func collect(upTo maxBytes: Int) async throws(HTTPError) -> [UInt8] {
        try await collect(upTo: maxBytes, truncating: false)
    }

    /// Reads the body up to `maxBytes`; past that, either cuts it (`truncating`) or throws `bodyTooLarge`.
    func collect(upTo maxBytes: Int, truncating: Bool) async throws(HTTPError) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard bytes.count + chunk.count <= maxBytes else {
                if truncating { return bytes + chunk.prefix(maxBytes - bytes.count) }
                throw HTTPError(
                    code: .bodyTooLarge,
                    message:
                        "The response body is larger than the allowed \(maxBytes) bytes; raise the limit or stream it")
            }
            bytes += chunk
        }
        return bytes
    }

    /// The trailer fields that followed the body (gRPC sends its `grpc-status` there): complete once the body was
    /// read to its end, empty before that and when there are none.
    public var trailers: HTTPHeaders { storage.transfer.trailers }

    /// Whether the transfer is paused because the reader is behind.
    package var isPaused: Bool { storage.transfer.isPaused }

    /// The bytes received but not yet read.
    package var bufferedByteCount: Int { storage.transfer.bufferedBytes }

    /// The most bytes that were buffered at once.
    package var maxBufferedByteCount: Int { storage.transfer.highWaterMark }
}
