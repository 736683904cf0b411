package import ResolveKitTools

/// The approval prompt for one batch, as a pure state machine: keys, clock ticks, resizes and cancellation in;
/// frames to draw, text to print above, and finally the verdicts out. No I/O, no clock of its own; the driver in
/// ``TerminalApprover`` feeds it and performs what it returns.
package struct ApprovalPrompt: Sendable {
    /// The verdict on one call.
    /// How a verdict came about.
    package enum Channel: String, Sendable, Hashable {
        /// A person at the terminal, with a key.
        case terminal
        /// An earlier "allow this function for the session" at the terminal.
        case sessionAllow = "session_allow"
        /// The input ended (end of file or Ctrl-D) before anyone answered.
        case endOfInput = "end_of_input"
        /// The operator pressed Ctrl-C: what is pending is declined, and the host is asked to quit.
        case interrupt
    }

    package enum Verdict: Sendable, Hashable {
        /// Approved, by a key or an earlier session-wide allow.
        case approved(via: ApprovalPrompt.Channel)
        /// Declined, with the reason the model is told.
        case declined(reason: String, via: ApprovalPrompt.Channel)
        /// The call's deadline passed before a decision.
        case timedOut

        /// The decision the runtime is given.
        package var callDecision: ToolCallDecision {
            switch self {
            case .approved: .approve
            case .declined(let reason, _): .decline(reason: reason)
            case .timedOut: .decline(reason: ApprovalPrompt.timedOutReason)
            }
        }
    }

    /// The prompt's result.
    package struct Outcome: Sendable, Hashable {
        /// Verdicts by call id; calls left undecided (the prompt was cancelled) are missing.
        package var verdicts: [ToolCallID: Verdict]
        /// Functions the operator allowed for the rest of the session.
        package var sessionAllowedFunctions: Set<String>

        /// Whether the operator pressed Ctrl-C: the host quits once these verdicts are given.
        package var isInterrupted: Bool { verdicts.values.contains(.declined(reason: declinedReason, via: .interrupt)) }
    }

    /// What the driver does next.
    package enum Action: Sendable, Hashable {
        /// Nothing changed.
        case none
        /// Replace the live region with the frame.
        case render(Frame)
        /// Print lines above the live region, then show the frame.
        case printAbove([StyledLine], Frame)
        /// The prompt is over.
        case finish(Outcome)
    }

    /// The live region's content.
    package struct Frame: Sendable, Hashable {
        /// The lines, wrapped to the width.
        package var lines: [StyledLine]
        /// Whether only countdowns changed (not redrawn on terminals without cursor control).
        package var isMinorUpdate: Bool
    }

    /// The reason a declined call gets when an operator declines at the terminal.
    package static let declinedReason = "Declined at the terminal"
    /// The reason a call gets when its deadline passes first.
    package static let timedOutReason = "Approval timed out"

    struct Row: Sendable, Hashable {
        var call: ToolApprovalRequest.Call
        /// When the call's deadline passes, on the prompt's clock.
        var deadline: Duration
        var verdict: Verdict?
        var checked = false
        var isOpen: Bool { verdict == nil }
    }

    enum Mode: Sendable, Hashable {
        case overview
        case choosing
        case finished
    }

    let batchID: Int
    var rows: [Row]
    var mode = Mode.overview
    var selected = 0
    var now: Duration
    var width: Int
    var sessionAllowed: Set<String> = []

    /// Creates the prompt for `request` on the driver's clock.
    /// - Parameters:
    ///   - request: the batch.
    ///   - askedAt: when the runtime asked; each call's deadline is `askedAt + timeRemaining`. `now` by default.
    ///   - now: the current time.
    ///   - width: the columns to wrap to.
    ///   - allowedFunctions: functions already allowed for the session; their calls start approved.
    package init(
        request: ToolApprovalRequest, askedAt: Duration? = nil, now: Duration, width: Int, allowedFunctions: Set<String>
    ) {
        batchID = request.batchID
        self.now = now
        self.width = max(20, width)
        rows = request.calls.map { call in
            let allowed = allowedFunctions.contains(call.call.functionName)
            return Row(
                call: call, deadline: (askedAt ?? now) + call.timeRemaining,
                verdict: allowed ? .approved(via: .sessionAllow) : nil)
        }
        selected = rows.firstIndex(where: \.isOpen) ?? 0
    }

    /// Whether every call is already decided (all allowed for the session), so nothing needs asking.
    package var isDecided: Bool { !rows.contains(where: \.isOpen) }

    /// The verdicts so far.
    package var outcome: Outcome {
        var verdicts: [ToolCallID: Verdict] = [:]
        for row in rows { if let verdict = row.verdict { verdicts[row.call.id] = verdict } }
        return Outcome(verdicts: verdicts, sessionAllowedFunctions: sessionAllowed)
    }
}

extension ApprovalPrompt {
    /// The earliest deadline of a call still open, so the driver can wake for it.
    package var nextDeadline: Duration? { rows.filter(\.isOpen).map(\.deadline).min() }
}
