import Synchronization

/// A terminal's output split in two: text that scrolls (the transcript, messages) and one **live region** at the
/// bottom that is redrawn in place (the approval prompt, a checklist, a streaming draft).
///
/// Printing clears the live region, writes the text, and draws the region again below it, so scrolling output and
/// a live region never overwrite each other. Share one screen between a ``TerminalApprover`` and a
/// ``TranscriptRenderer``. On a terminal without cursor control (`TERM=dumb`, a pipe) the region is appended
/// instead of redrawn, and minor updates (countdowns) are skipped.
public final class TerminalScreen: Sendable {
    private struct Region {
        /// The lines as given.
        var lines: [StyledLine] = []
        /// The cell width of each screen line drawn for them, to count rows again after a resize.
        var drawnWidths: [Int] = []
        /// Who draws it.
        var owner: ObjectIdentifier?
        /// The input prompt on the last line while a line is being read, redrawn below anything printed.
        var prompt: String?
    }

    /// The terminal written to.
    public let terminal: TerminalIO
    /// What the terminal can show, decided once at creation.
    public let capabilities: TerminalCapabilities
    private let region = Mutex(Region())

    /// Creates a screen on `terminal`.
    /// - Parameter capabilities: what to use; by default decided from the terminal's environment.
    public init(terminal: TerminalIO, capabilities: TerminalCapabilities? = nil) {
        self.terminal = terminal
        self.capabilities = capabilities ?? terminal.capabilities
    }

    /// The number of columns lines are wrapped to: one less than the window, so no line ends in the last cell.
    /// Output that is not a terminal (a pipe, a file) is not wrapped: a reader or a script sees whole lines.
    public var wrapWidth: Int { terminal.isInteractive ? max(20, terminal.size.columns - 1) : Int.max }

    /// Prints lines above the live region (and above the input prompt, which is drawn again below them).
    public func print(_ lines: [StyledLine]) {
        region.withLock { region in
            var output = leavePrompt(region) + erase(region)
            for line in lines {
                for piece in line.wrapped(to: wrapWidth) {
                    output += piece.rendered(colors: capabilities.colors) + "\n"
                }
            }
            if capabilities.cursorControl {
                let live = region.lines
                output += draw(live, into: &region)
            }
            terminal.write(output + (region.prompt ?? ""))
        }
    }

    /// Shows the input prompt (`> `) on the last line until ``endPrompt()``: output printed meanwhile (an agent's
    /// message arriving while the user types) goes above it, and the prompt is drawn again below.
    ///
    /// What the user typed before the interruption stays in the terminal's line buffer and is still sent with the
    /// line, but is not shown again (the terminal, not this program, echoes it).
    public func showPrompt(_ prompt: String) {
        region.withLock { region in
            region.prompt = prompt
            terminal.write(prompt)
        }
    }

    /// The line was entered (the cursor is already on the next line): no prompt to keep.
    public func endPrompt() {
        region.withLock { $0.prompt = nil }
    }

    /// Prints one line above the live region.
    public func print(_ line: StyledLine) { print([line]) }

    /// Replaces the live region with `lines` (wrapped to the current width).
    ///
    /// When another owner's region is showing, that region is left on the screen as ordinary output and a new one
    /// starts below it, so a streaming draft never erases an approval checklist (or the reverse).
    /// - Parameters:
    ///   - isMinorUpdate: a change only of countdowns and the like; not shown without cursor control.
    ///   - owner: who draws the region, e.g. `ObjectIdentifier(self)`; `nil` for an anonymous region.
    public func showLive(_ lines: [StyledLine], isMinorUpdate: Bool = false, owner: ObjectIdentifier? = nil) {
        region.withLock { region in
            if region.owner != owner { region = Region(owner: owner, prompt: region.prompt) }
            if !capabilities.cursorControl, isMinorUpdate || lines == region.lines {
                region.lines = lines
                return
            }
            let output = leavePrompt(region) + erase(region) + draw(lines, into: &region)
            terminal.write(output + (region.prompt ?? ""))
        }
    }

    /// Whether no live region is showing (nothing would be pushed up by drawing one).
    public var isLiveFree: Bool {
        region.withLock { $0.lines.isEmpty }
    }

    /// Whether the live region now showing is `owner`'s.
    public func ownsLive(_ owner: ObjectIdentifier?) -> Bool {
        region.withLock { !$0.lines.isEmpty && $0.owner == owner }
    }

    /// Leaves the live region on the screen as ordinary output; the next
    /// ``showLive(_:isMinorUpdate:owner:)`` starts a new region below it.
    /// - Parameter owner: commit only if the region is this owner's; any region when `nil`.
    public func commitLive(owner: ObjectIdentifier? = nil) {
        region.withLock { region in
            if owner == nil || region.owner == owner { region = Region(prompt: region.prompt) }
        }
    }

    /// Removes the live region from the screen.
    /// - Parameter owner: remove only if the region is this owner's; any region when `nil`.
    public func clearLive(owner: ObjectIdentifier? = nil) {
        region.withLock { region in
            guard owner == nil || region.owner == owner else { return }
            let erased = erase(region)
            let prompt = region.prompt
            region = Region(prompt: prompt)
            if !erased.isEmpty { terminal.write(leavePrompt(region) + erased + (prompt ?? "")) }
        }
    }

    /// What moves output off the prompt's line: with cursor control the prompt line is cleared (it is drawn again
    /// after the output); without, the output starts on a new line.
    private func leavePrompt(_ region: Region) -> String {
        guard region.prompt != nil else { return "" }
        return capabilities.cursorControl ? "\r\u{1B}[2K" : "\n"
    }

    /// The escape codes that remove the region's lines from the screen (nothing without cursor control).
    ///
    /// Rows are counted at the current width, so a region drawn before the window narrowed (and was reflowed by
    /// the terminal) is still erased whole.
    private func erase(_ region: Region) -> String {
        guard capabilities.cursorControl, !region.drawnWidths.isEmpty else { return "" }
        let columns = max(1, terminal.size.columns)
        let rows = region.drawnWidths.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
        return "\r\u{1B}[\(rows)A\u{1B}[J"
    }

    /// The text that draws `lines` below the cursor; records them as the region.
    ///
    /// With cursor control a region taller than the window less one row is cut in the middle (its first rows, a
    /// note of how many were left out, its last row), because rows scrolled off the top cannot be redrawn.
    private func draw(_ lines: [StyledLine], into region: inout Region) -> String {
        var pieces = lines.flatMap { $0.wrapped(to: wrapWidth) }
        let maxRows = max(3, terminal.size.rows - 1)
        if capabilities.cursorControl, pieces.count > maxRows, let last = pieces.last {
            let omitted = pieces.count - maxRows + 1
            pieces = pieces.prefix(maxRows - 2) + [StyledLine("… (+\(omitted) lines not shown)", .dim), last]
        }
        var output = ""
        region.lines = lines
        region.drawnWidths = []
        for piece in pieces {
            output += piece.rendered(colors: capabilities.colors) + "\n"
            region.drawnWidths.append(piece.width)
        }
        return output
    }
}
