/// The bookkeeping of one connection's pipeline: the bytes still to write and the batches waiting for replies,
/// matched in order.
///
/// A pure value the connection keeps under its lock. A batch is several commands written at once whose replies
/// come back in the same order; it completes when its last reply arrives. When the connection breaks, every
/// waiting batch learns whether any of its bytes reached the socket (``Failure/mayHaveExecuted``): one that did may
/// have run on the server and must not be retried blindly.
struct RedisPipeline: Sendable {
    struct Batch: Sendable {
        var id: Int
        /// Offsets of the batch's bytes in the connection's byte stream.
        var start: Int
        var end: Int
        var expected: Int
        var replies: [RESPValue] = []
        /// The waiter gave up (cancelled, timed out): its replies are read and dropped to keep the order.
        var abandoned = false
    }

    /// A batch that ended without all its replies.
    struct Failure: Sendable, Equatable {
        var id: Int
        var mayHaveExecuted: Bool
    }

    /// What a reply did.
    enum Delivery: Sendable, Equatable {
        /// The batch needs more replies.
        case pending
        /// The batch `id` has all its replies.
        case completed(id: Int, replies: [RESPValue])
        /// The reply belonged to an abandoned batch and was dropped.
        case dropped
        /// No batch was waiting: the server sent a reply nobody asked for.
        case unexpected
    }

    private var outbox: [UInt8] = []
    /// The stream offset of `outbox[0]`.
    private var outboxStart = 0
    private(set) var written = 0
    private var batches: [Batch] = []
    private var head = 0

    /// Whether bytes wait to be written.
    var hasUnwritten: Bool { written < outboxStart + outbox.count }

    /// Batches waiting for replies (abandoned ones included).
    var waitingCount: Int { batches.count - head }

    /// Queues a batch of `count` commands already encoded as `bytes`.
    mutating func enqueue(id: Int, bytes: [UInt8], count: Int) {
        let start = outboxStart + outbox.count
        outbox += bytes
        batches.append(Batch(id: id, start: start, end: start + bytes.count, expected: count))
    }

    /// Lends the unwritten bytes (at most `limit`) to `write`, which returns how many it wrote.
    mutating func write(limit: Int = 256 << 10, _ write: (UnsafeRawBufferPointer) -> Int) {
        let from = written - outboxStart
        let count = min(outbox.count - from, limit)
        guard count > 0 else { return }
        let sent = outbox.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[from..<from + count])) }
        guard sent > 0 else { return }
        written += min(sent, count)
        // Drop what is written once it is most of the buffer, so the copy stays cheap.
        let done = written - outboxStart
        if done == outbox.count {
            outbox.removeAll(keepingCapacity: true)
            outboxStart = written
        } else if done > 64 << 10, done * 2 > outbox.count {
            outbox.removeFirst(done)
            outboxStart = written
        }
    }

    /// Routes one reply to the oldest waiting batch.
    mutating func received(_ reply: RESPValue) -> Delivery {
        guard head < batches.count else { return .unexpected }
        batches[head].replies.append(reply)
        guard batches[head].replies.count == batches[head].expected else { return .pending }
        let batch = batches[head]
        head += 1
        if head > 64, head * 2 > batches.count {
            batches.removeFirst(head)
            head = 0
        }
        return batch.abandoned ? .dropped : .completed(id: batch.id, replies: batch.replies)
    }

    /// Marks batch `id` as given up; its replies will be dropped.
    ///
    /// - Returns: Whether any of its bytes were written (so the server may run it), or `nil` when it is not waiting.
    mutating func abandon(id: Int) -> Bool? {
        guard let index = batches[head...].firstIndex(where: { $0.id == id }) else { return nil }
        batches[index].abandoned = true
        return written > batches[index].start
    }

    /// Ends every waiting batch, for a connection that broke; the pipeline is empty afterwards.
    mutating func failAll() -> [Failure] {
        let failures = batches[head...].filter { !$0.abandoned }.map {
            Failure(id: $0.id, mayHaveExecuted: written > $0.start)
        }
        batches.removeAll()
        head = 0
        outboxStart += outbox.count
        outbox.removeAll()
        written = outboxStart
        return failures
    }
}
