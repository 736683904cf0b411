import ResolveKitTools
import Synchronization

extension TerminalApprover {
    private enum Event: Sendable {
        case input([UInt8]?)
        case tick
    }

    /// The driver: feeds the prompt's state machine with keys and ticks, draws what it returns, and settles the
    /// decision. Raw mode is on only while it runs and is restored on every exit path, cancellation included.
    func prompt(_ request: ToolApprovalRequest, askedAt: Duration, allowed: Set<String>) async -> ToolBatchDecision {
        let start = clock.elapsed
        var machine = ApprovalPrompt(
            request: request, askedAt: askedAt, now: start, width: screen.wrapWidth, allowedFunctions: allowed)
        commitChecklist()
        let terminal = screen.terminal
        terminal.enterRawMode()
        defer { terminal.restore() }
        show(machine.start())

        let (events, continuation) = AsyncStream<Event>.makeStream()
        let outcome: ApprovalPrompt.Outcome? = await withTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            func read() {
                group.addTask {
                    let bytes = await terminal.readInput()
                    continuation.yield(.input(bytes))
                }
            }
            func scheduleTick(now: Duration) {
                let elapsedSeconds = (now - start).components.seconds
                var wake = start + .seconds(elapsedSeconds + 1)
                if let deadline = machine.nextDeadline, deadline > now { wake = min(wake, deadline) }
                group.addTask { [clock] in
                    guard (try? await clock.sleep(untilElapsed: wake)) != nil else { return }
                    continuation.yield(.tick)
                }
            }
            read()
            scheduleTick(now: start)
            var decoder = KeyDecoder()
            for await event in events {
                switch event {
                case .input(nil):
                    if case .finish(let outcome) = machine.endOfInput() { return outcome }
                case .input(let bytes?):
                    show(machine.resize(width: screen.wrapWidth))
                    for key in decoder.decode(bytes) {
                        let action = machine.key(key)
                        if case .finish(let outcome) = action { return outcome }
                        show(action)
                    }
                    read()
                case .tick:
                    show(machine.resize(width: screen.wrapWidth))
                    let now = clock.elapsed
                    let action = machine.tick(now: now)
                    if case .finish(let outcome) = action { return outcome }
                    show(action)
                    scheduleTick(now: now)
                }
            }
            return nil
        }
        continuation.finish()
        guard let outcome else { return cancelled(request, &machine) }
        let decision = settle(request, outcome)
        if outcome.isInterrupted { onInterrupt?() }
        return decision
    }

    private func show(_ action: ApprovalPrompt.Action) {
        switch action {
        case .none, .finish: break
        case .render(let frame): screen.showLive(frame.lines, isMinorUpdate: frame.isMinorUpdate, owner: liveOwner)
        case .printAbove(let lines, let frame):
            screen.print(lines)
            screen.showLive(frame.lines, owner: liveOwner)
        }
    }

    /// Remembers session-wide allows, shows the checklist and returns the decision.
    private func settle(_ request: ToolApprovalRequest, _ outcome: ApprovalPrompt.Outcome) -> ToolBatchDecision {
        let checklist = BatchChecklist(batchID: request.batchID, calls: request.calls, verdicts: outcome.verdicts)
        storage.state.withLock { state in
            state.allowedFunctions[request.sessionID, default: []].formUnion(outcome.sessionAllowedFunctions)
            state.checklist = checklist
        }
        screen.showLive(checklist.lines, owner: liveOwner)
        let verdicts = request.calls.map { call in
            (call, outcome.verdicts[call.id] ?? .declined(reason: "User denied action", via: .terminal))
        }
        return Self.attributed(request, verdicts)
    }

    /// The runtime stopped waiting: calls past their deadline are listed above as timed out (the runtime records
    /// them); the prompt is removed (the runtime asks again about calls still in time).
    private func cancelled(_ request: ToolApprovalRequest, _ machine: inout ApprovalPrompt) -> ToolBatchDecision {
        let outcome = machine.cancel(now: clock.elapsed)
        screen.clearLive(owner: liveOwner)
        let timedOut = request.calls.filter { outcome.verdicts[$0.id] == .timedOut }
        if !timedOut.isEmpty {
            screen.print(timedOut.map { StyledLine("⌛ \($0.call.functionName) timed out waiting for approval", .red) })
        }
        return .declineAll(reason: "Approval cancelled")
    }
}
