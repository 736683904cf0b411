import ResolveKitTelemetry
import Synchronization

/// Tells whether an export of spans ran while a call was measured, so `tool-latency` can say how many calls shared
/// the machine with one and what the p99 of the others was. An export runs from the moment its batch leaves the
/// processor's queue (it is encoded, then sent) until its request is answered.
final class ExportWatch: Sendable {
    /// What the watch saw at one moment.
    struct Look {
        let sendsStarted: Int
        let sendsFinished: Int
        let queued: Int
        /// A batch left the queue and its request has not started yet: it is being encoded.
        let encoding: Bool
    }

    private let sendsStarted = Atomic<Int>(0)
    private let sendsFinished = Atomic<Int>(0)
    /// How many sends had started when a batch was seen leaving the queue.
    private let batchTakenAt = Mutex<Int?>(nil)
    private let processor = Mutex<BatchSpanProcessor?>(nil)

    /// Watches `processor`'s queue from now on.
    func watch(_ processor: BatchSpanProcessor?) {
        self.processor.withLock { $0 = processor }
    }

    /// What the watch sees now.
    func look() -> Look {
        let started = sendsStarted.load(ordering: .relaxed)
        return Look(
            sendsStarted: started, sendsFinished: sendsFinished.load(ordering: .relaxed),
            queued: processor.withLock { $0?.queuedCount ?? 0 }, encoding: batchTakenAt.withLock { $0 == started })
    }

    /// Whether an export ran at any moment since `before`.
    func ranBetween(_ before: Look) -> Bool {
        let now = look()
        if now.queued < before.queued { batchTakenAt.withLock { $0 = before.sendsStarted } }
        return before.encoding || before.sendsStarted != before.sendsFinished || now.queued < before.queued
            || now.sendsStarted != before.sendsStarted || now.sendsFinished != before.sendsFinished
    }

    fileprivate func sendStarted() { sendsStarted.add(1, ordering: .relaxed) }
    fileprivate func sendFinished() { sendsFinished.add(1, ordering: .relaxed) }
}

/// A transport that tells an ``ExportWatch`` when each export's request starts and ends.
struct CountingTransport: OTLPTransport {
    let inner: any OTLPTransport
    let watch: ExportWatch

    init(_ inner: any OTLPTransport, watch: ExportWatch) {
        self.inner = inner
        self.watch = watch
    }

    func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
        watch.sendStarted()
        defer { watch.sendFinished() }
        return try await inner.send(request)
    }

    func shutdown() async { await inner.shutdown() }
}
