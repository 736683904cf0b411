import Synchronization
import ResolveKitHTTP

extension SessionDriver {
    /// Performs one action. Nothing here decides: each case does what the action says and, where something comes
    /// of it later, sends that back as an event.
    func perform(_ action: SessionAction) {
        switch action {
        case .send(let call, let access, let tag):
            let trace = parts.telemetry.sending(call, access: access, tag: tag)
            spawn(immediately: true) { [self] in
                let result = await request(call, access: access, trace: trace)
                parts.telemetry.answered(call, result)
                send(.answered(tag, result))
            }
        case .openStream(let generation, let path, let cursor):
            openStream(generation: generation, path: path, cursor: cursor)
        case .closeStream:
            core.withLock { $0.tasks.stream.take() }?.cancel()
        case .runBatch(let batch, let sessionID, let allowedNames, let epoch):
            let runner = parts.runner
            let settings = parts.settings
            let telemetry = parts.telemetry
            let deadlines = ToolCallDeadlines(
                approval: { settings.executionDeadline($0) }, run: { call, _ in settings.executionDeadline(call) })
            let trace = telemetry.callTrace
            spawn(immediately: true) { [self] in
                await runner.run(
                    batch, in: sessionID, allowedNames: allowedNames, deadlines: deadlines, trace: trace,
                    startPermit: { callID in await self.startPermit(callID, epoch: epoch) }
                ) { step in
                    self.send(.call(step, epoch: epoch))
                }
                send(.batchDone(batchID: batch.id, epoch: epoch))
            }
        case .stopCalls(let callIDs, let sessionID, let error, let cancellingRunning):
            if cancellingRunning {
                parts.runner.cancel(callIDs, in: sessionID, because: error)
            } else {
                parts.runner.withdraw(callIDs, in: sessionID, because: error)
            }
        case .write(let write, let sequence):
            self.write(write, sequence: sequence)
        case .auditOutcome(let call, let sessionID, let outcome):
            parts.runner.audit.outcome(call, sessionID: sessionID, outcome, duration: nil)
        case .arm(let timer, let deadline):
            arm(timer, at: deadline)
        case .disarm(let timer):
            core.withLock { $0.tasks.timers.removeValue(forKey: timer) }?.cancel()
        case .publish(let publication):
            publish(publication)
        case .reply(let waiter, let reply):
            parts.telemetry.replied(waiter, reply)
            core.withLock { $0.waiters.replies.removeValue(forKey: waiter) }?.resume(returning: reply)
        case .permitStart(let callID, let allowed):
            core.withLock { $0.waiters.starts.removeValue(forKey: callID) }?.resume(returning: allowed)
        case .finish:
            let (waiter, starts, counts) = core.withLock { core in
                core.hasFinished = true
                defer { core.waiters.starts = [:] }
                return (core.waiters.run.take(), core.waiters.starts.values, core.gauges.takeAll())
            }
            parts.telemetry.finished(queuedAsks: counts.queuedAsks, journalEntries: counts.journalEntries)
            for start in starts { start.resume(returning: false) }
            waiter?.resume()
        }
    }

    /// Asks the machine whether a decided call may start, and waits for its word (`false` once the run ended).
    func startPermit(_ callID: ToolCallID, epoch: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let ended = core.withLock { core -> Bool in
                if core.hasFinished { return true }
                core.waiters.starts[callID] = continuation
                return false
            }
            if ended { return continuation.resume(returning: false) }
            send(.startRequested(callID, epoch: epoch))
        }
    }

    /// Applies a write: a local store at once, on this thread; a shared one in order, on the writer's task. Its
    /// completion comes back as an event either way.
    private func write(_ write: StateWrite, sequence: Int) {
        if let local = localStore {
            let result = Result { () throws(ResolveKitError) in try local.applyNow(write) }
            send(.written(sequence, result))
        } else {
            writer.enqueue(write, sequence: sequence)
        }
    }

    /// Shows hosts one change: the runtime's snapshot, its events, the log; telemetry takes what it needs first.
    func publish(_ publication: Publication) {
        if case .log(let line, let level, let span) = publication {
            let metadata =
                parts.output.logger.isEnabled(level) ? span?.logMetadata ?? parts.telemetry.logMetadata() : [:]
            parts.output.log(line, level: level, metadata: metadata)
            return
        }
        record(publication)
        parts.output.apply(publication)
    }

    /// What telemetry takes from a publication: a session opened, a turn seen or ended.
    private func record(_ publication: Publication) {
        switch publication {
        case .sessionOpened(let response): parts.telemetry.sessionOpened(response.id)
        case .turnStarted(let turnID): parts.telemetry.turnStarted(turnID: turnID)
        case .turnFinished(let requestID, let turnID, let outcome, let usage):
            parts.telemetry.turnFinished(requestID: requestID, turnID: turnID, outcome: outcome, usage: usage)
        default: break
        }
    }

    private func arm(_ timer: TimerID, at deadline: Duration) {
        let clock = parts.clock
        // Immediately: the timer's sleep is registered before this returns, so a test's manual clock sees it.
        let task = Task.immediate { [self] in
            do { try await clock.sleep(untilElapsed: deadline) } catch { return }
            send(.timerFired(timer, at: deadline))
        }
        core.withLock { $0.tasks.timers.updateValue(task, forKey: timer) }?.cancel()
    }

    /// The event stream from `cursor`, replacing the one open; its elements and its end come back as events of
    /// `generation`.
    private func openStream(generation: Int, path: String, cursor: String?) {
        guard let backend = core.withLock({ $0.backend }) else { return }
        var configuration = EventStream.Configuration(idleTimeout: parts.configuration.streamIdleTimeout)
        if let budget = parts.configuration.reconnectAttemptBudget { configuration.backoff.maxAttempts = budget }
        let telemetry = parts.telemetry
        let counts = telemetry.metrics != nil
        configuration.onReconnect = { [weak self] cause in
            if counts { telemetry.streamReconnecting(cause) }
            self?.send(.streamWillReconnect(generation: generation, cause: cause))
        }
        let stream = EventStream(
            url: backend.eventsURL(for: path), cursor: cursor, configuration: configuration,
            transport: backend.eventStreamTransport(), clock: parts.clock,
            headers: { [weak self] in self?.streamHeaders() ?? [] })
        let task = spawn(immediately: false) { [self] in
            let wire = parts.wire
            var connected = false
            let termination = await stream.run { element in
                if case .event(let event) = element, wire.hasSubscribers {
                    wire.send(.event(id: event.id, type: event.type, data: event.data))
                }
                // Counted before the machine has it: a host that sees what it caused reads counts that include it.
                telemetry.streamElement(element, connected: &connected)
                send(.stream(generation: generation, element))
            }
            telemetry.streamEnded(connected: connected)
            send(.streamEnded(generation: generation, termination))
        }
        core.withLock { core in
            let old = core.tasks.stream
            core.tasks.stream = task
            return old
        }?.cancel()
    }

    /// The headers of each connect: the current capability token, refreshed or not.
    private func streamHeaders() -> [(name: String, value: String)] {
        let (backend, access) = core.withLock { ($0.backend, $0.machine.access) }
        guard let backend else { return [] }
        return backend.headers(session: access, accept: "text/event-stream").map { ($0.name, $0.value) }
    }
}
