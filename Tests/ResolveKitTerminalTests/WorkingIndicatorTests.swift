import ResolveKit
import ResolveKitTerminal
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct WorkingIndicatorTests {
    @Test func theElapsedSecondsCountUpInPlaceAndTheLineGoesWhenTheTurnEnds() async {
        let terminal = FakeTerminal()
        let clock = ManualClock()
        let indicator = WorkingIndicator(screen: TerminalScreen(terminal: terminal.io), clock: ResolveKitClock(clock))
        let turnEnded = OneShotSignal()
        async let done: Void = indicator.show { await turnEnded.wait() }
        await clock.waitForSleeper(at: .seconds(1))
        #expect(terminal.screen.contains("working… 0 s"))
        clock.advance(to: .seconds(1))
        await clock.waitForSleeper(at: .seconds(2))
        #expect(terminal.screen.contains("working… 1 s"))
        #expect(!terminal.screen.contains("working… 0 s"))
        turnEnded.fire()
        await done
        #expect(!terminal.screen.contains("working…"))
    }

    @Test func anotherLiveRegionIsNeverPushedAside() async {
        let terminal = FakeTerminal()
        let clock = ManualClock()
        let screen = TerminalScreen(terminal: terminal.io)
        let indicator = WorkingIndicator(screen: screen, clock: ResolveKitClock(clock))
        let turnEnded = OneShotSignal()
        async let done: Void = indicator.show { await turnEnded.wait() }
        await clock.waitForSleeper(at: .seconds(1))
        let checklist = Checklist()
        screen.showLive([StyledLine("Approve 1 tool call?")], owner: ObjectIdentifier(checklist))
        clock.advance(to: .seconds(1))
        await clock.waitForSleeper(at: .seconds(2))
        #expect(screen.ownsLive(ObjectIdentifier(checklist)))
        #expect(terminal.screenLines.filter { $0.contains("Approve 1 tool call?") }.count == 1)
        turnEnded.fire()
        await done
        #expect(terminal.screen.contains("Approve 1 tool call?"))
    }

    final class Checklist: Sendable {}
}

/// A signal a test fires once; waiting after it fired returns at once.
final class OneShotSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func fire() { continuation.yield() }

    func wait() async {
        for await _ in stream { return }
    }
}
