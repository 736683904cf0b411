import Synchronization

extension EventStream {
    /// Reads one open connection until it ends; `nil` when the task was cancelled.
    ///
    /// The idle watchdog runs as a child task and aborts the transfer through `connection.abortStalled`, which
    /// gives up the connection under it too; the connection is cancelled on every exit path and the parser is reset
    /// for the next connection.
    func read<Failure: Error>(
        isolation: isolated (any Actor)? = #isolation, _ connection: EventStreamConnection, parser: inout SSEParser,
        machine: inout StateMachine,
        body: (Element) async throws(Failure) -> Void
    ) async throws(Failure) -> StateMachine.Ending? {
        let watchdog = IdleWatchdog(now: time.now())
        let result = await withTaskGroup(of: Void.self) { group in
            if let idleTimeout = configuration.idleTimeout {
                let time = self.time
                group.addTask {
                    await watchdog.run(idleTimeout: idleTimeout, time: time, onTimeout: connection.abortStalled)
                }
            }
            let result = await withTaskCancellationHandler {
                await readLoop(
                    isolation: isolation, connection.chunks, watchdog: watchdog, parser: &parser, machine: &machine,
                    body: body)
            } onCancel: {
                connection.cancel()
            }
            group.cancelAll()
            connection.cancel()
            return result
        }
        parser.finish()
        return try result.get()
    }

    private func readLoop<Failure: Error>(
        isolation: isolated (any Actor)?, _ chunks: AsyncThrowingStream<[UInt8], any Error>, watchdog: IdleWatchdog,
        parser: inout SSEParser,
        machine: inout StateMachine, body: (Element) async throws(Failure) -> Void
    ) async -> Result<StateMachine.Ending?, Failure> {
        var iterator = chunks.makeAsyncIterator()
        var outputs: [SSEParser.Output] = []
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try await iterator.next(isolation: isolation)
            } catch {
                let broken = EventStreamError(code: .transport, message: "The event stream broke", underlying: error)
                return .success(ending(watchdog, otherwise: .transport(broken)))
            }
            guard let chunk else { break }
            watchdog.touch(time.now())
            outputs.removeAll(keepingCapacity: true)
            chunk.withUnsafeBytes { bytes in parser.parse(bytes) { outputs.append($0) } }
            for output in outputs {
                do throws(Failure) {
                    switch output {
                    case .event(let event):
                        if machine.received(event) == .deliver { try await body(.event(event)) }
                    case .comment(let text):
                        try await body(.comment(text))
                    case .failure(let error):
                        try await body(.discarded(error))
                    }
                } catch {
                    return .failure(error)
                }
            }
        }
        return .success(ending(watchdog, otherwise: .endOfStream))
    }

    private func ending(_ watchdog: IdleWatchdog, otherwise: StateMachine.Ending) -> StateMachine.Ending? {
        if Task.isCancelled { return nil }
        return watchdog.fired ? .idleTimeout : otherwise
    }
}

/// Aborts a connection when no byte arrived for the idle timeout. Shared by the reader (``touch(_:)``) and the
/// watchdog task (``run(idleTimeout:time:onTimeout:)``).
final class IdleWatchdog: Sendable {
    private let lastActivity: Mutex<Duration>
    private let didFire = Atomic<Bool>(false)

    init(now: Duration) { lastActivity = Mutex(now) }

    var fired: Bool { didFire.load(ordering: .acquiring) }

    func touch(_ now: Duration) { lastActivity.withLock { $0 = now } }

    func run(idleTimeout: Duration, time: TimeSource, onTimeout: @Sendable () -> Void) async {
        var deadline = lastActivity.withLock { $0 } + idleTimeout
        while true {
            do { try await time.sleep(deadline) } catch { return }
            let last = lastActivity.withLock { $0 }
            if last + idleTimeout <= time.now() {
                didFire.store(true, ordering: .releasing)
                onTimeout()
                return
            }
            deadline = last + idleTimeout
        }
    }
}
