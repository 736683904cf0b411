import Testing

@testable import ResolveKitHTTP

/// The state machine is pure; its continuations are real ones resumed by the test itself.
@Suite(.timeLimit(.minutes(1)))
struct TransferStateMachineTests {
    typealias Machine = Transfer.StateMachine
    static let head = Transfer.ResponseHead(status: 200, headers: [:], version: .http1_1)

    /// Starts the machine and delivers the head, as execute and the curl thread would.
    private func streamingMachine(limit: Int = 8) async -> Machine {
        var machine = Machine(maxBufferedBytes: limit)
        let result = await withCheckedContinuation { continuation in
            #expect(machine.start(continuation) == nil)
            machine.headReceived()?.resume(returning: .success(Self.head))
        }
        #expect((try? result.get())?.status == 200)
        return machine
    }

    /// Asks for the next chunk; a suspension is resumed by `whileWaiting`.
    private func next(
        _ machine: inout Machine,
        whileWaiting: (inout Machine) -> Void = { machine in
            Issue.record("the reader waited although bytes or the end were due")
            machine.cancel(.cancelledError).consumer?.resume(returning: .failure(.cancelledError))
        }
    ) async -> (Result<[UInt8]?, HTTPError>, unpause: Bool) {
        var unpause = false
        let result = await withCheckedContinuation { continuation in
            switch machine.next(continuation) {
            case .resume(let continuation, let result, let shouldUnpause):
                unpause = shouldUnpause
                continuation.resume(returning: result)
            case .suspend:
                whileWaiting(&machine)
            }
        }
        return (result, unpause)
    }

    @Test func cancellingBeforeStartFailsTheStartWithoutAnAbort() async throws {
        var machine = Machine(maxBufferedBytes: 8)
        #expect(machine.cancel(.cancelledError).abortTransfer == false)
        let result = await withCheckedContinuation { continuation in
            if let (continuation, error) = machine.start(continuation) {
                continuation.resume(returning: .failure(error))
            }
        }
        #expect(throws: HTTPError.self) { try result.get() }
    }

    @Test func cancellingWhileWaitingForTheHeadFailsExecuteAndAbortsOnce() async throws {
        var machine = Machine(maxBufferedBytes: 8)
        let result = await withCheckedContinuation { continuation in
            #expect(machine.start(continuation) == nil)
            let action = machine.cancel(.cancelledError)
            #expect(action.abortTransfer)
            action.head?.resume(returning: .failure(.cancelledError))
        }
        #expect((try? result.get()) == nil)
        #expect(machine.cancel(.cancelledError).abortTransfer == false)
        #expect(machine.headReceived() == nil)
        if case .abort = machine.bodyReceived([1]) {} else { Issue.record("body after cancel must abort") }
    }

    @Test func bytesPastTheLimitPauseAndAFullReadUnpauses() async throws {
        var machine = await streamingMachine(limit: 8)
        if case .accept = machine.bodyReceived([1, 2, 3, 4, 5]) {} else { Issue.record("expected accept") }
        if case .accept = machine.bodyReceived([6, 7, 8]) {} else { Issue.record("expected accept") }
        if case .pause = machine.bodyReceived([9]) {} else { Issue.record("expected pause") }
        #expect(machine.isPaused)
        #expect(machine.bufferedBytes == 8)
        let (result, unpause) = await next(&machine)
        #expect(try result.get() == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(unpause)
        #expect(!machine.isPaused)
        #expect(machine.highWaterMark == 8)
    }

    @Test func aWaitingReaderGetsBytesDirectly() async throws {
        var machine = await streamingMachine()
        let (result, _) = await next(&machine) { machine in
            if case .deliver(let consumer, let bytes) = machine.bodyReceived([7]) {
                consumer.resume(returning: .success(bytes))
            } else {
                Issue.record("expected deliver")
            }
        }
        #expect(try result.get() == [7])
        #expect(machine.bufferedBytes == 0)
    }

    @Test func bufferedBytesComeBeforeTheEnd() async throws {
        var machine = await streamingMachine()
        _ = machine.bodyReceived([1, 2])
        #expect(machine.completed(nil) == nil)
        #expect(try await next(&machine).0.get() == [1, 2])
        #expect(try await next(&machine).0.get() == nil)
        #expect(try await next(&machine).0.get() == nil)
    }

    @Test func aFailureReachesTheWaitingReaderOnce() async throws {
        var machine = await streamingMachine()
        let (result, _) = await next(&machine) { machine in
            if case .chunk(let consumer, let result) = machine.completed(.shutdownError) {
                consumer.resume(returning: result)
            }
        }
        #expect(throws: HTTPError.self) { try result.get() }
        #expect(try await next(&machine).0.get() == nil)
    }

    @Test func cancellingAfterCompletionNeedsNoAbort() async throws {
        var machine = await streamingMachine()
        _ = machine.bodyReceived([1])
        _ = machine.completed(nil)
        #expect(machine.cancel(.cancelledError).abortTransfer == false)
    }

    @Test func cancellingAStreamFailsTheWaitingReaderAndAborts() async throws {
        var machine = await streamingMachine()
        let (result, _) = await next(&machine) { machine in
            let action = machine.cancel(.cancelledError)
            #expect(action.abortTransfer)
            action.consumer?.resume(returning: .failure(.cancelledError))
        }
        #expect((try? result.get()) == nil)
    }
}
