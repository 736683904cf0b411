import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct StreamChunksWaitingTests {
    /// A chunk the curl thread handed to an event stream's reader counts as waiting until the reader runs; then
    /// the count is back to zero. A reader whose executor is held shows the window deterministically.
    @Test func anEventStreamChunkWaitsUntilItsReaderRuns() async throws {
        #expect(try await chunksWaitingWhileTheReaderIsHeld(isLongLived: true) == [1, 0])
    }

    /// Only event streams count: an ordinary response's body is nobody's turn to wait for.
    @Test func anOrdinaryBodyChunkIsNotCounted() async throws {
        #expect(try await chunksWaitingWhileTheReaderIsHeld(isLongLived: false) == [0, 0])
    }

    /// The count while the reader's resumption is held, then after it ran.
    private func chunksWaitingWhileTheReaderIsHeld(isLongLived: Bool) async throws -> [Int] {
        let gate = Gate()
        let handler: LoopbackHandler = { _ in
            LoopbackResponse(
                status: 200,
                body: .stream { writer in
                    await gate.wait()
                    try await writer.write(Array("data: first\n\n".utf8))
                })
        }
        return try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await HTTPClient.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.baseURL, isLongLived: isLongLived))
                let executor = HeldExecutor()
                var arrivals = executor.arrivals.makeAsyncIterator()
                let reader = Task(executorPreference: executor) {
                    var iterator = response.body.makeAsyncIterator()
                    return try await iterator.next()
                }
                _ = await arrivals.next()
                executor.runQueued()  // the reader now waits for the first chunk
                gate.open()
                _ = await arrivals.next()  // the chunk arrived; the reader's resumption is held
                let whileHeld = client.streamChunksWaiting
                executor.runQueued()
                #expect(try await reader.value == Array("data: first\n\n".utf8))
                return [whileHeld, client.streamChunksWaiting]
            }
        }
    }
}

/// A task executor that runs nothing until told: each job it is given waits in a queue, and `arrivals` yields once
/// per job.
private final class HeldExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let arrival = AsyncStream<Void>.makeStream()
    var arrivals: AsyncStream<Void> { arrival.stream }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        arrival.continuation.yield()
    }

    /// Runs the queued jobs on this thread, and those they queue, until none is left.
    func runQueued() {
        while true {
            let batch = jobs.withLock { jobs in
                defer { jobs = [] }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
