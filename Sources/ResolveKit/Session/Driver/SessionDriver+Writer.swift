import Synchronization

extension SessionDriver {
    /// Writes to a shared store, one after another in the order the machine issued them, on one task the session
    /// keeps (started with the first write); each completion comes back as ``SessionEvent/written(_:_:)``.
    struct Writer: Sendable {
        private let driver: SessionDriver

        init(_ driver: SessionDriver) {
            self.driver = driver
        }

        func enqueue(_ write: StateWrite, sequence: Int) {
            let continuation = driver.core.withLock { core in
                if let queue = core.writes.queue { return (queue, false) }
                let (stream, queue) = AsyncStream<(StateWrite, Int)>.makeStream()
                core.writes = StoreWrites(queue: queue, pending: stream)
                return (queue, true)
            }
            if continuation.1 { startWriting() }
            continuation.0.yield((write, sequence))
        }

        private func startWriting() {
            guard let stream = driver.core.withLock({ $0.writes.pending.take() }) else { return }
            let store = driver.parts.store
            driver.spawn(immediately: false) { [driver] in
                for await (write, sequence) in stream {
                    let result: Result<Void, ResolveKitError>
                    do throws(ResolveKitError) {
                        try await store.apply(write)
                        result = .success(())
                    } catch {
                        result = .failure(error)
                    }
                    driver.send(.written(sequence, result))
                }
            }
        }
    }

    var writer: Writer { Writer(self) }

    /// The queue of writes to a shared store (``Writer``), in order, made with the first write.
    struct StoreWrites: Sendable {
        var queue: AsyncStream<(StateWrite, Int)>.Continuation?
        /// The stream the writer's task reads, until that task takes it.
        var pending: AsyncStream<(StateWrite, Int)>?
    }
}
