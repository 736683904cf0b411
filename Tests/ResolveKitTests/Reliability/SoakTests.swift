import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization
import Testing

extension Tag {
    /// Long-running fault-injection soaks; `RK_SOAK_TURNS` and `RK_SOAK_SEED` size and replay them.
    @Tag static var soak: Self
}

@Suite(
    .serialized, .tags(.soak),
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)))
struct SoakTests {
    /// Many scripted turns while faults fire at random, reproducibly from the seed. After every turn: no call ran
    /// twice, no result was lost or posted twice, no turn hangs, and the state in memory and in Redis stays
    /// bounded. The state is in a real `redis-server`, so a replica kill (the runtime's replica is cut off from
    /// Redis and stops; another takes the key over once its lease ran out) is one of the faults.
    /// The limit fits the long run (`RK_SOAK_TURNS=5000` takes about 30 minutes on two cores); the short one
    /// takes seconds, and a hung turn ends the run after 30 s of real time whatever this says.
    @Test(.timeLimit(.minutes(150)))
    func turnsUnderRandomFaultsRunEachCallAtMostOnceAndDeliverEveryResultOnce() async throws {
        let settings = SoakSettings.fromEnvironment()
        var random = SplitMix64(seed: settings.seed)
        let world = try await SoakWorld.make(faults: FaultPlan())
        let faults = world.backend.configuration.faults
        var calls = SoakCalls()
        var injected: [SoakFault: Int] = [:]
        var hungTurns = 0
        var lostResults = 0
        var turns = 0
        let started = await world.startFirstRuntime()
        #expect(started, "the runtime did not start")
        for turn in 0..<(started ? settings.turns : 0) {
            let shape = SoakTools.shapes.randomElement(using: &random)!
            let planned = (0..<(random.chance(35) ? 0 : Int.random(in: 1...2, using: &random))).map { _ in
                let fault = SoakFault.allCases.randomElement(using: &random)!
                return (fault: fault, midTurn: !fault.isBeforeSendOnly && random.chance(50))
            }
            var broken = false
            for entry in planned where !entry.midTurn {
                injected[entry.fault, default: 0] += 1
                broken = await !entry.fault.inject(into: world, calls: &calls, random: &random) || broken
            }
            let outcome = await world.send("\(shape.tag) soak turn \(turn)")
            if !planned.filter(\.midTurn).isEmpty {
                _ = await world.settle(realBound: .milliseconds(Int.random(in: 0...30, using: &random))) { false }
            }
            for entry in planned where entry.midTurn {
                injected[entry.fault, default: 0] += 1
                broken = await !entry.fault.inject(into: world, calls: &calls, random: &random) || broken
            }
            let settled = await world.settle {
                calls.collect(from: world.backend, sessions: world.sessions.all)
                let counters = world.backend.counters
                return counters.turnsStarted == counters.turnsEnded && !world.runtime.isTurnInProgress
                    && world.runtime.connectionState == .active && calls.unanswered(counters).isEmpty
                    && SoakBounds.unfinishedCalls(world.runtime).isEmpty
            }
            faults.releaseStalls()
            faults.duplicateEventsOnReplay(false)
            turns += 1
            let counters = world.backend.counters
            let problems =
                calls.violations(counters) + SoakBounds.violations(of: world)
                + (await SoakBounds.storeViolations(of: world))
            if !settled || broken || outcome == nil {
                hungTurns += 1
                lostResults += calls.unanswered(counters).count
                let diagnostics = SoakBounds.diagnostics(world)
                let probe = await SoakBounds.probeHTTP(world)
                let stage = broken ? "a fault's recovery stuck" : outcome == nil ? "sending stuck" : "unsettled"
                let turnText = "turn \(turn) (\(shape.tag), faults \(planned))"
                Issue.record("\(turnText) hung (\(stage)): \(diagnostics) || \(probe)")
            }
            for problem in problems.prefix(10) { Issue.record("turn \(turn) (\(shape.tag), \(planned)): \(problem)") }
            if !settled || broken || !problems.isEmpty { break }
            if turns % 500 == 0 {
                // Unbuffered, so it shows at once when the test binary runs directly (`.build/debug/*.xctest
                // --testing-library swift-testing --filter SoakTests`); `swift test` relays a redirected run's
                // output only when it ends.
                let faultCount = injected.values.reduce(0, +)
                let line = "soak: \(turns) turns, \(faultCount) faults, \(calls.executions) executions\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        SoakBounds.checkSecrets(world)
        let byKind = injected.sorted { $0.key.description < $1.key.description }.map { "\($0.key) \($0.value)" }
        let counters = world.backend.counters
        print(
            "soak seed \(settings.seed): turns \(turns), faults \(injected.values.reduce(0, +)) (by kind: "
                + byKind.joined(separator: ", ") + "), executions \(calls.executions), duplicate executions "
                + "\(calls.duplicateExecutions), lost results \(lostResults), hung turns \(hungTurns) [calls "
                + "\(calls.calls.count), unreachable after renumbering \(calls.hiddenCalls), server timeouts "
                + "\(counters.toolCallsTimedOut), stream connections \(counters.streamConnections), sessions "
                + "\(world.sessions.all.count), manual time \(world.clock.now)]")
        await world.shutdown()
        #expect(turns == settings.turns)
        #expect(calls.duplicateExecutions == 0)
        #expect(lostResults == 0)
        #expect(hungTurns == 0)
    }
}
