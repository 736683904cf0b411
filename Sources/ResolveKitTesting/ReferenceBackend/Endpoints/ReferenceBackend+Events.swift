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
        let dropGeneration = state.withLock { $0.streamDropGeneration }
        let remaining = countdown(configuration.clock, from: configuration.streamConnectionCap)
        let live = LiveStream(
            sessionID: sessionID, output: StreamOutput(writer: writer, drop: drop), cursor: cursor,
            duplicatesReplay: configuration.faults.duplicatesReplay)
        let events: (StreamCursor) -> [StoredEvent] = { self.events(of: sessionID, after: $0) }
        // Registered after the first write, so `: connected` comes first; the loop reads the events again after.
        guard await live.write(comment: Array(": connected\n\n".utf8), events: events) else { return }
        state.withLock { $0.liveStreams[sessionID, default: []].append(live) }
        defer {
            state.withLock { state in
                state.liveStreams[sessionID]?.removeAll { $0 === live }
                if state.liveStreams[sessionID]?.isEmpty == true { state.liveStreams[sessionID] = nil }
            }
        }
        var comment: [UInt8]?
        let quiet = WaitDeadline(in: configuration.keepAliveInterval, clock: configuration.clock)
        while !writer.isClientGone {
            let generation = changes.generation(of: sessionID)
            if state.withLock({ $0.stopped }) { break }
            if state.withLock({ $0.streamDropGeneration }) != dropGeneration {
                await writer.abortConnection()
                break
            }
            guard await live.write(comment: comment, events: events) else { break }
            comment = nil
            let left = remaining()
            if left <= .zero { break }
            quiet.move(to: min(configuration.keepAliveInterval, left))
            let woke = await changes.wait(after: generation, session: sessionID, until: quiet)
            if Task.isCancelled { break }
            if !woke {
                if remaining() <= .zero { break }
                comment = Array(": keep-alive\n\n".utf8)
            }
        }
        await live.close()
    }

    /// Writes a session's new events to its open streams from the calling task, where no other task is writing
    /// to them already (that one writes them): the task that appended a call sends it without waiting for the
    /// stream's own task to be scheduled.
    func flushStreams(of sessionID: String) async {
        let streams = state.withLock { $0.liveStreams[sessionID] ?? [] }
        for stream in streams where !(await stream.write { self.events(of: sessionID, after: $0) }) {
            // The stream broke under this task: wake its own task, which waits for a change, so it ends now.
            changes.notify(session: sessionID)
        }
    }

    /// The session's events after `cursor`. A session's events are in position order (one generator numbers every
    /// event, and a restart of the numbering drops them all), so a position cursor finds its first event by
    /// bisection: a stream's every write costs what it sends, not the session's whole history.
    private func events(of sessionID: String, after cursor: StreamCursor) -> [StoredEvent] {
        state.withLock { state in
            guard let events = state.sessions[sessionID]?.events else { return [] }
            guard case .after(let position) = cursor else { return events.filter(cursor.admits) }
            var low = events.startIndex
            var high = events.endIndex
            while low < high {
                let middle = low + (high - low) / 2
                if events[middle].position > position { high = middle } else { low = middle + 1 }
            }
            return Array(events[low...])
        }
    }
}

/// Writes stream bytes and applies an injected drop (after N events, or at a byte offset, mid-frame if it falls so).
struct StreamOutput: Sendable {
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
