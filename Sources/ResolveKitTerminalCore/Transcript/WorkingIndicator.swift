public import ResolveKitTools

/// `working… 12 s` in the live region while a turn runs, so a person sees the agent is busy. It draws only while
/// the live region is free or its own: a streaming draft or an approval checklist takes precedence, and the line
/// comes back once they are gone.
public final class WorkingIndicator: Sendable {
    /// Where it draws.
    public let screen: TerminalScreen
    let clock: ResolveKitClock

    /// Creates an indicator on `screen`, ticking on `clock`.
    public init(screen: TerminalScreen, clock: ResolveKitClock) {
        self.screen = screen
        self.clock = clock
    }

    /// Shows the line, updated every second of `clock`, until `operation` returns; then removes it.
    public func show<Value: Sendable>(while operation: () async -> Value) async -> Value {
        let owner = ObjectIdentifier(self)
        let ticker = Task { [screen, clock] in
            let start = clock.elapsed
            var seconds = 0
            while !Task.isCancelled {
                if screen.isLiveFree || screen.ownsLive(owner) {
                    screen.showLive([StyledLine("working… \(seconds) s", .dim)], isMinorUpdate: seconds > 0, owner: owner)
                }
                seconds += 1
                do { try await clock.sleep(untilElapsed: start + .seconds(seconds)) } catch { break }
            }
        }
        let value = await operation()
        ticker.cancel()
        await ticker.value
        screen.clearLive(owner: owner)
        return value
    }
}
