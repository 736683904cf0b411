import Synchronization
import Testing

@testable import ResolveKitTesting

/// A stream written by its own task and by the tasks that append calls: one writer at a time, every event once,
/// in order, even when an event is appended while another task is writing.
@Suite(.timeLimit(.minutes(1)))
struct LiveStreamTests {
    /// Records writes; the first write waits until ``releaseFirst()``.
    final class GatedWriter: LoopbackBodyWriter {
        private struct State {
            var written: [String] = []
            var gate: CheckedContinuation<Void, Never>?
            var isGated = true
            var entered: CheckedContinuation<Void, Never>?
            var hasEntered = false
        }

        private let state = Mutex(State())

        var written: [String] { state.withLock { $0.written } }

        func write(_ bytes: [UInt8]) async throws {
            let text = String(decoding: bytes, as: UTF8.self)
            let gated = state.withLock { state in
                state.written.append(text)
                defer { state.isGated = false }
                return state.isGated
            }
            guard gated else { return }
            await withCheckedContinuation { continuation in
                let entered = state.withLock { state in
                    state.gate = continuation
                    state.hasEntered = true
                    defer { state.entered = nil }
                    return state.entered
                }
                entered?.resume()
            }
        }

        func abortConnection() async {}

        var isClientGone: Bool { false }

        /// Returns once the first write is under way (and held).
        func waitForFirstWrite() async {
            await withCheckedContinuation { continuation in
                let entered = state.withLock { state in
                    if !state.hasEntered { state.entered = continuation }
                    return state.hasEntered
                }
                if entered { continuation.resume() }
            }
        }

        /// Lets the held first write finish (call after ``waitForFirstWrite()``).
        func releaseFirst() {
            state.withLock { state in
                defer { state.gate = nil }
                return state.gate
            }?.resume()
        }
    }

    /// Events kept by the test: what `LiveStream.write(events:)` reads after a cursor.
    final class Events: Sendable {
        private let events = Mutex<[StoredEvent]>([])

        func append(_ name: String) {
            events.withLock { events in
                let position = EventPosition(major: events.count + 1, minor: 0)
                events.append(
                    StoredEvent(
                        id: name, position: position, type: "test", turnID: "t", frame: Array("data: \(name)\n\n".utf8))
                )
            }
        }

        func after(_ cursor: StreamCursor) -> [StoredEvent] { events.withLock { $0.filter(cursor.admits) } }
    }

    @Test func anEventAppendedWhileAnotherTaskWritesIsWrittenByThatTaskOnceAndInOrder() async {
        let writer = GatedWriter()
        let events = Events()
        let stream = LiveStream(
            sessionID: "s", output: StreamOutput(writer: writer, drop: nil), cursor: .start, duplicatesReplay: false)
        events.append("one")
        let first = Task { await stream.write(comment: Array(": connected\n\n".utf8), events: events.after) }
        await writer.waitForFirstWrite()
        // The stream is busy: this call leaves a note and returns at once, writing nothing.
        events.append("two")
        #expect(await stream.write(events: events.after))
        #expect(writer.written == [": connected\n\n"])
        writer.releaseFirst()
        #expect(await first.value)
        #expect(writer.written == [": connected\n\n", "data: one\n\n", "data: two\n\n"])
        // Nothing new: a later write sends nothing again.
        #expect(await stream.write(events: events.after))
        #expect(writer.written.count == 3)
    }

    @Test func closingWaitsForTheWriterAndStopsLaterWrites() async {
        let writer = GatedWriter()
        let events = Events()
        let stream = LiveStream(
            sessionID: "s", output: StreamOutput(writer: writer, drop: nil), cursor: .start, duplicatesReplay: false)
        events.append("one")
        let first = Task { await stream.write(events: events.after) }
        await writer.waitForFirstWrite()
        let closed = Task { await stream.close() }
        writer.releaseFirst()
        await closed.value
        _ = await first.value
        events.append("two")
        #expect(await stream.write(events: events.after) == false)
        #expect(writer.written == ["data: one\n\n"])
    }

    @Test func aStreamThatBrokeUnderAWriterClosesAtOnce() async {
        final class PlainWriter: LoopbackBodyWriter {
            func write(_ bytes: [UInt8]) async throws {}
            func abortConnection() async {}
            var isClientGone: Bool { false }
        }
        let events = Events()
        let stream = LiveStream(
            sessionID: "s", output: StreamOutput(writer: PlainWriter(), drop: .afterEvents(1)), cursor: .start,
            duplicatesReplay: false)
        events.append("one")
        #expect(await stream.write(events: events.after) == false)
        // The broken writer let go of the stream: close does not wait for it (the suite's time limit catches a hang).
        await stream.close()
        #expect(await stream.write(events: events.after) == false)
    }
}
