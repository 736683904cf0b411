extension BatchSpanProcessor {
    /// Why a span was not exported: the `reason` label of `resolvekit_telemetry_spans_dropped_total`.
    public enum DropReason: String, MetricLabelValue {
        /// The queue was full when the span ended (the exporter is behind or down).
        case queueFull = "queue_full"
        /// The endpoint refused the batch, or every retry failed.
        case exportFailed = "export_failed"
        /// The span ended after shutdown, or was still queued when shutdown's deadline passed.
        case shutdown
        /// The endpoint took its batch but refused it (a partial success: invalid, or over the endpoint's limits).
        case rejected

        /// The case's position.
        public var labelIndex: Int {
            switch self {
            case .queueFull: 0
            case .exportFailed: 1
            case .shutdown: 2
            case .rejected: 3
            }
        }
    }

    /// The processor's decisions: the bounded queue, when to export, retries and their backoff, flushes and
    /// shutdown. Pure: the owner performs the waits and exports and feeds their ends back. It queues spans of any
    /// form (the processor's are described when exported).
    struct StateMachine<QueuedSpan: Sendable>: Sendable {
        struct Configuration {
            var maxQueueSize: Int
            var maxBatchSize: Int
            var scheduleDelay: Duration
            var maxAttempts: Int
            var initialBackoff: Duration
            var maxBackoff: Duration
        }

        /// What the span-ending caller does after queueing.
        enum EndAction: Equatable {
            case queued
            /// Queued, and the loop must be woken: the first span of an idle queue, or a full batch.
            case queuedAndWake
            case dropped(DropReason)
        }

        /// What the export loop does next.
        enum LoopAction {
            case export([QueuedSpan])
            /// Wait until woken, or until the duration passes (`nil`: until woken).
            case wait(Duration?)
            case finish
        }

        private enum Phase { case running, shuttingDown, finished }
        private enum Waiting { case none, forSpans, forTimer, forRetry }

        /// The batch taken from the queue, until it is exported or dropped.
        private struct InFlight {
            var spans: [QueuedSpan]
            /// An attempt is running.
            var exporting = true
            var attempts = 1
            var retryDelay: Duration = .zero
            /// The wait before the next attempt is over.
            var retryDue = false
        }

        /// Spans queued and spans exported or dropped after queueing, since the start: a flush waits for the
        /// second to reach the first's value at its request.
        private struct Flushes {
            var queuedTotal = 0
            var settledTotal = 0
            var waiting: [(id: Int, target: Int)] = []

            /// The flushes the spans settled so far complete, forgetting them.
            mutating func completed() -> [Int] {
                let done = waiting.filter { $0.target <= settledTotal }.map(\.id)
                waiting.removeAll { $0.target <= settledTotal }
                return done
            }
        }

        let configuration: Configuration
        private var queue: [QueuedSpan] = []
        private var phase = Phase.running
        private var waiting = Waiting.none
        private var timerDue = false
        private var inFlight: InFlight?
        private var flushes = Flushes()
        private(set) var dropped: [DropReason: Int] = [:]
        private(set) var exported = 0
        /// Spans handed to the processor, queued or not: once the loop ended, each was exported or dropped.
        private(set) var received = 0

        init(configuration: Configuration) {
            self.configuration = configuration
        }

        var queuedCount: Int { queue.count }

        /// Whether someone waits for the exports: a flush, or shutdown. Their work then runs at normal priority
        /// rather than at the kernel's idle one, which on a busy machine would leave it a sliver of a core.
        var isUrgent: Bool { !flushes.waiting.isEmpty || phase == .shuttingDown }

        mutating func spanEnded(_ span: consuming QueuedSpan) -> EndAction {
            received += 1
            guard phase == .running else { return drop(.shutdown, count: 1) }
            guard queue.count < configuration.maxQueueSize else { return drop(.queueFull, count: 1) }
            queue.append(span)
            flushes.queuedTotal += 1
            let wake =
                (waiting == .forSpans && queue.count == 1)
                || (queue.count == configuration.maxBatchSize && (waiting == .forTimer || waiting == .forSpans))
            return wake ? .queuedAndWake : .queued
        }

        mutating func nextAction() -> LoopAction {
            guard phase != .finished else { return .finish }
            if let batch = inFlight {
                guard batch.retryDue else { return park(.forRetry, batch.retryDelay) }
                inFlight?.retryDue = false
                inFlight?.exporting = true
                return .export(batch.spans)
            }
            if !queue.isEmpty, queue.count >= configuration.maxBatchSize || timerDue || isUrgent {
                let batch = takeBatch()
                timerDue = false
                inFlight = InFlight(spans: batch)
                return .export(batch)
            }
            if phase == .shuttingDown {
                phase = .finished
                return .finish
            }
            return queue.isEmpty ? park(.forSpans, nil) : park(.forTimer, configuration.scheduleDelay)
        }

        /// The oldest spans, at most a batch. The processor's lock is held here while span-ending callers wait
        /// for it, so a queue no longer than a batch is handed over whole: copying it span by span (each a few
        /// retains, then as many releases) held the lock for tens of microseconds at every export.
        private mutating func takeBatch() -> [QueuedSpan] {
            guard queue.count > configuration.maxBatchSize else {
                defer { queue = [] }
                return queue
            }
            let batch = Array(queue[..<configuration.maxBatchSize])
            queue.removeFirst(configuration.maxBatchSize)
            return batch
        }

        /// The loop's wait ended: `timedOut` when its duration passed rather than a wake.
        mutating func waitEnded(timedOut: Bool) {
            if timedOut {
                switch waiting {
                case .forTimer: timerDue = true
                case .forRetry: inFlight?.retryDue = true
                case .none, .forSpans: break
                }
            }
            waiting = .none
        }

        /// An export attempt ended; returns the flushes it completed. `jitter` (−1…1) spreads the backoff.
        mutating func exportEnded(_ result: SpanExportResult, jitter: Double) -> [Int] {
            guard var attempt = inFlight, attempt.exporting else { return [] }
            attempt.exporting = false
            inFlight = attempt
            let count = attempt.spans.count
            switch result {
            case .success:
                exported += count
                inFlight = nil
                settle(count)
            case .partialSuccess(let rejected):
                let refused = min(max(0, rejected), count)
                exported += count - refused
                _ = drop(.rejected, count: refused)
                inFlight = nil
                settle(count)
            case .retry(let after) where attempt.attempts < configuration.maxAttempts && phase != .finished:
                attempt.attempts += 1
                let backoff = configuration.initialBackoff * (1 << min(attempt.attempts - 2, 16))
                let spread = min(backoff, configuration.maxBackoff) * (1 + 0.2 * max(-1, min(1, jitter)))
                attempt.retryDelay = min(after ?? spread, configuration.maxBackoff)
                inFlight = attempt
            case .retry, .failure:
                _ = drop(.exportFailed, count: count)
                inFlight = nil
                settle(count)
            }
            return flushes.completed()
        }

        /// A flush asks for every span queued so far; returns whether it is already complete, and whether the loop
        /// must be woken.
        mutating func flushRequested(id: Int) -> (done: Bool, wake: Bool) {
            guard flushes.settledTotal < flushes.queuedTotal else { return (true, false) }
            flushes.waiting.append((id, flushes.queuedTotal))
            return (false, waiting != .none && waiting != .forRetry)
        }

        /// A flush's caller stopped waiting (its deadline passed).
        mutating func flushAbandoned(id: Int) {
            flushes.waiting.removeAll { $0.id == id }
        }

        /// Stops taking spans; the loop exports what is queued and finishes. Returns whether to wake it.
        mutating func shutdownRequested() -> Bool {
            guard phase == .running else { return false }
            phase = .shuttingDown
            return waiting != .none && waiting != .forRetry
        }

        /// Shutdown's deadline passed: what is queued, or waiting to be retried, is dropped; a batch being exported
        /// is settled by its export's end. The loop finishes after that export. Returns the flushes this settles.
        mutating func abandon() -> [Int] {
            guard phase != .finished else { return [] }
            phase = .finished
            var count = queue.count
            queue.removeAll()
            if let batch = inFlight, !batch.exporting {
                count += batch.spans.count
                inFlight = nil
            }
            _ = drop(.shutdown, count: count)
            settle(count)
            return flushes.completed()
        }

        private mutating func park(_ reason: Waiting, _ duration: Duration?) -> LoopAction {
            waiting = reason
            return .wait(duration)
        }

        private mutating func drop(_ reason: DropReason, count: Int) -> EndAction {
            dropped[reason, default: 0] += count
            return .dropped(reason)
        }

        private mutating func settle(_ count: Int) {
            flushes.settledTotal += count
        }
    }
}

extension BatchSpanProcessor.StateMachine.LoopAction: Equatable where QueuedSpan: Equatable {}
