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
                if let queue = core.writeQueue { return (queue, false) }
                let (stream, queue) = AsyncStream<(StateWrite, Int)>.makeStream()
                core.writeQueue = queue
                core.pendingWrites = stream
                return (queue, true)
            }
            if continuation.1 { startWriting() }
            continuation.0.yield((write, sequence))
        }

        private func startWriting() {
            guard let stream = driver.core.withLock({ $0.pendingWrites.take() }) else { return }
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
}
