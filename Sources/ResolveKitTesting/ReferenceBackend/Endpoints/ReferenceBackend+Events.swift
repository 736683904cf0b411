import Foundation
import Synchronization

extension ReferenceBackend {
    /// `GET /v1/sessions/{id}/events[?cursor=]`: the SSE stream of WireProtocol §5, byte for byte.
    func openEventStream(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        let sessionID: String
        switch sessionPreamble(request, id: id) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        let date = now
        let ttl = configuration.sessionTTL
        let expired: Bool? = state.withLock { $0.sessions[sessionID].map { $0.isExpired(now: date, ttl: ttl) } }
        guard let expired else { return BackendReply.sessionNotFound }
        if expired { return BackendReply.sessionExpired }
        let cursor = StreamCursor(request.query["cursor"], style: configuration.eventIDStyle)
        let drop = configuration.faults.takeStreamDrop()
        state.withLock { $0.counters.streamConnections += 1 }
        return LoopbackResponse(
            status: 200,
            headers: [
                (name: "cache-control", value: "no-cache"), (name: "x-accel-buffering", value: "no"),
                (name: "content-type", value: "text/event-stream; charset=utf-8"),
            ],
            body: .stream { writer in
                await self.pumpEvents(sessionID: sessionID, cursor: cursor, drop: drop, writer: writer)
            })
    }

    private func pumpEvents(
        sessionID: String, cursor: StreamCursor, drop: FaultPlan.StreamDrop?, writer: any LoopbackBodyWriter
    )
        async
    {
        let span = state.withLock { state in
            state.counters.openStreams += 1
            state.streamSpans[sessionID, default: []].append(StreamSpan(openedAt: .now, endedAt: nil))
            return state.streamSpans[sessionID, default: []].count - 1
        }
        defer {
            state.withLock { state in
                state.counters.openStreams -= 1
                state.streamSpans[sessionID]?[span].endedAt = .now
            }
        }
        var output = StreamOutput(writer: writer, drop: drop)
        let dropGeneration = state.withLock { $0.streamDropGeneration }
        let remaining = Self.countdown(configuration.clock, from: configuration.streamConnectionCap)
        guard await output.send(Array(": connected\n\n".utf8), isEvent: false) else { return }
        var cursor = cursor
        var replaying = true
        while !writer.isClientGone {
            let generation = changes.generation
            let (events, stopped) = state.withLock { state in
                ((state.sessions[sessionID]?.events ?? []).filter(cursor.admits), state.stopped)
            }
            if stopped { return }
            if state.withLock({ $0.streamDropGeneration }) != dropGeneration {
                await writer.abortConnection()
                return
            }
            let copies = replaying && configuration.faults.duplicatesReplay ? 2 : 1
            replaying = false
            for event in events {
                for _ in 0..<copies {
                    guard await output.send(event.frame, isEvent: true) else { return }
                }
                cursor = .after(event.position)
            }
            if !events.isEmpty { continue }
            let left = remaining()
            if left <= .zero { return }
            let woke = await withTimeout(min(configuration.keepAliveInterval, left), clock: configuration.clock) {
                await self.changes.wait(after: generation, session: sessionID)
                return true
            }
            if Task.isCancelled { return }
            if woke == nil {
                if remaining() <= .zero { return }
                guard await output.send(Array(": keep-alive\n\n".utf8), isEvent: false) else { return }
            }
        }
    }

    /// A closure returning the time left until `duration` from now on `clock` (opens the existential clock).
    private static func countdown<C: Clock<Duration>>(_ clock: C, from duration: Duration) -> @Sendable () -> Duration {
        let deadline = clock.now.advanced(by: duration)
        return { clock.now.duration(to: deadline) }
    }
}

/// Writes stream bytes and applies an injected drop (after N events, or at a byte offset, mid-frame if it falls so).
struct StreamOutput {
    let writer: any LoopbackBodyWriter
    let drop: FaultPlan.StreamDrop?
    var bytesWritten = 0
    var eventsWritten = 0

    /// Writes `bytes`; `false` when the stream is over (client gone or connection dropped on purpose).
    mutating func send(_ bytes: [UInt8], isEvent: Bool) async -> Bool {
        if case .atByteOffset(let offset) = drop, bytesWritten + bytes.count >= offset {
            let prefix = Array(bytes.prefix(max(0, offset - bytesWritten)))
            if !prefix.isEmpty { try? await writer.write(prefix) }
            await writer.abortConnection()
            return false
        }
        do {
            try await writer.write(bytes)
        } catch {
            return false
        }
        bytesWritten += bytes.count
        if isEvent { eventsWritten += 1 }
        if case .afterEvents(let count) = drop, isEvent, eventsWritten >= count {
            await writer.abortConnection()
            return false
        }
        return true
    }
}
