import ResolveKitTools

extension ApprovalPrompt {
    /// The key bindings, as `?` prints them.
    static let helpLines: [StyledLine] = [
        StyledLine("Keys", .bold),
        "  a          approve every call of the batch",
        "  d          decline every call of the batch",
        "  c, space   choose call by call: ↑/↓ or j/k move, space toggles, enter confirms, esc goes back",
        "  v          show the selected call's arguments in full",
        "  s          allow the selected call's function for the rest of the session (approves it now)",
        "  ?          this help",
        "  Ctrl-C     decline every call, then quit",
        "  Ctrl-D, end of input   decline every call",
    ]

    /// The live region for the current state.
    func frame() -> Frame {
        let open = rows.count(where: \.isOpen)
        var lines: [StyledLine] = [
            StyledLine([
                .init("Approve \(open == 1 ? "1 tool call" : "\(open) tool calls")?", .bold),
                .init("  batch \(batchID)", .dim),
            ])
        ]
        for (index, row) in rows.enumerated() { lines += rowLines(row, selected: index == selected) }
        lines += footer
        return Frame(lines: lines.flatMap { $0.wrapped(to: width, indent: 6) }, isMinorUpdate: false)
    }

    private var footer: [StyledLine] {
        switch mode {
        case .choosing:
            [StyledLine("space toggle · ↑/↓ move · enter confirm · a approve all · d decline all · esc back", .dim)]
        case .overview, .finished:
            [
                StyledLine(
                    "a approve all · d decline all · c choose · v view · s allow function for session · ? help", .dim)
            ]
        }
    }

    private func rowLines(_ row: Row, selected: Bool) -> [StyledLine] {
        let call = row.call.call
        var head: [StyledLine.Span] = [.init(selected ? "› " : "  ", .cyan)]
        if mode == .choosing, row.isOpen {
            head.append(.init(row.checked ? "[x] " : "[ ] ", row.checked ? .green : .plain))
        }
        head.append(.init(call.functionName, selected ? .inverse : .bold))
        head.append(.init(call.requiresApproval ? " · needs approval" : " · no approval needed", .dim))
        switch row.verdict {
        case nil:
            let left = row.deadline - now
            head.append(.init(" · \(Self.countdown(left)) left", left <= .seconds(10) ? .red : .yellow))
        case .approved(via: .sessionAllow)?:
            head.append(.init(" · allowed for this session", .green))
        case .approved?:
            head.append(.init(" · approved", .green))
        case .declined?:
            head.append(.init(" · declined", .red))
        case .timedOut?:
            head.append(.init(" · timed out", .red))
        }
        var lines = [StyledLine(head)]
        if !call.humanDescription.isEmpty { lines.append(StyledLine("      " + call.humanDescription)) }
        for text in ArgumentFormatter.summary(call.arguments) { lines.append(StyledLine("      " + text, .dim)) }
        return lines
    }

    /// The full arguments of a row, printed above the prompt by `v`.
    func argumentLines(of row: Row) -> [StyledLine] {
        [StyledLine("Arguments of \(row.call.call.functionName) (\(row.call.id)):", .bold)]
            + ArgumentFormatter.full(row.call.call.arguments).map { StyledLine("  " + $0) }
    }

    /// `m:ss`, rounded up to whole seconds, never negative.
    static func countdown(_ duration: Duration) -> String {
        let components = duration.components
        var seconds = max(0, components.seconds)
        if components.seconds >= 0, components.attoseconds > 0 { seconds += 1 }
        let tens = seconds % 60 < 10 ? "0" : ""
        return "\(seconds / 60):\(tens)\(seconds % 60)"
    }
}
