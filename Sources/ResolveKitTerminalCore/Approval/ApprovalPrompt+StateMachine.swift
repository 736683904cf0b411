import ResolveKitTools

extension ApprovalPrompt {
    /// The first frame.
    package func start() -> Action { .render(frame()) }

    /// A key was pressed.
    package mutating func key(_ key: Key) -> Action {
        guard mode != .finished else { return .none }
        switch key {
        case .character("a"):
            return finish { _ in .approved(via: .terminal) }
        case .character("d"):
            return finish { _ in .declined(reason: Self.declinedReason, via: .terminal) }
        case .controlC:
            return finish { _ in .declined(reason: Self.declinedReason, via: .interrupt) }
        case .controlD:
            return endOfInput()
        case .character("c") where mode == .overview, .character(" ") where mode == .overview:
            mode = .choosing
            return .render(frame())
        case .character(" "):
            guard rows[selected].isOpen else { return .none }
            rows[selected].checked.toggle()
            return .render(frame())
        case .enter where mode == .choosing:
            return finish { row in
                row.checked ? .approved(via: .terminal) : .declined(reason: Self.declinedReason, via: .terminal)
            }
        case .escape where mode == .choosing:
            mode = .overview
            return .render(frame())
        case .up, .character("k"):
            selected = max(0, selected - 1)
            return .render(frame())
        case .down, .character("j"):
            selected = min(rows.count - 1, selected + 1)
            return .render(frame())
        case .character("v"):
            return .printAbove(argumentLines(of: rows[selected]), frame())
        case .character("s"):
            return allowForSession(rows[selected].call.call.functionName)
        case .character("?"):
            return .printAbove(Self.helpLines, frame())
        default:
            return .none
        }
    }

    /// The input ended: every open call is declined.
    package mutating func endOfInput() -> Action {
        guard mode != .finished else { return .none }
        return finish { _ in .declined(reason: Self.declinedReason, via: .endOfInput) }
    }

    /// Time passed: countdowns change; calls past their deadline time out; when none is left open, it finishes.
    package mutating func tick(now: Duration) -> Action {
        guard mode != .finished else { return .none }
        self.now = max(self.now, now)
        let expired = expireOverdueRows()
        if isDecided { return finish { _ in .timedOut } }
        var frame = frame()
        frame.isMinorUpdate = !expired
        return .render(frame)
    }

    /// The window's width changed.
    package mutating func resize(width: Int) -> Action {
        guard mode != .finished, max(20, width) != self.width else { return .none }
        self.width = max(20, width)
        return .render(frame())
    }

    /// The decision is no longer wanted (the runtime cancelled it): calls past their deadline are recorded as
    /// timed out, the others stay undecided.
    package mutating func cancel(now: Duration) -> Outcome {
        self.now = max(self.now, now)
        _ = expireOverdueRows()
        mode = .finished
        return outcome
    }

    private mutating func expireOverdueRows() -> Bool {
        var expired = false
        for index in rows.indices where rows[index].isOpen && rows[index].deadline <= now {
            rows[index].verdict = .timedOut
            expired = true
        }
        return expired
    }

    private mutating func allowForSession(_ functionName: String) -> Action {
        sessionAllowed.insert(functionName)
        for index in rows.indices where rows[index].isOpen && rows[index].call.call.functionName == functionName {
            rows[index].verdict = .approved(via: .terminal)
        }
        if isDecided {
            mode = .finished
            return .finish(outcome)
        }
        if !rows[selected].isOpen, let next = rows.firstIndex(where: \.isOpen) { selected = next }
        return .render(frame())
    }

    /// Gives every open call the verdict `decide` returns and finishes.
    private mutating func finish(_ decide: (Row) -> Verdict) -> Action {
        for index in rows.indices where rows[index].isOpen { rows[index].verdict = decide(rows[index]) }
        mode = .finished
        return .finish(outcome)
    }
}
