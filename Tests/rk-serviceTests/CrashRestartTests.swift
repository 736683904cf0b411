import Foundation
import Glibc
import ResolveKitTesting
import Testing

/// Exactly once across a crash, shown with real processes: a runtime killed with SIGKILL in the middle of a call,
/// or in the middle of posting its result, is started again on the same state folder, and each call is run once
/// and answered once.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CrashRestartTests {
    static let script = AgentScript(rules: [
        .init(.keywords(["hold"]), rounds: [.toolCalls([.init("hold")]), .text("held: {result}")]),
        .init(.keywords(["quick"]), rounds: [.toolCalls([.init("quick")]), .text("quick: {result}")]),
        .init(.keywords(["guarded"]), rounds: [.toolCalls([.init("guarded")]), .text("guarded: {result}")]),
    ])

    /// A backend on loopback and a state folder for probe processes.
    static func withBackend(_ body: (ReferenceBackend, LoopbackHTTPServer, String) async throws -> Void) async throws {
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(script: script))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let state = "/tmp/rk-crash-test-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: state) }
        do {
            try await body(backend, server, state)
        } catch {
            await backend.stop()
            await server.stop()
            throw error
        }
        await backend.stop()
        await server.stop()
    }

    static func probe(_ server: LoopbackHTTPServer, _ state: String, message: String? = nil, key: String? = nil) throws
        -> ServiceProcess
    {
        let arguments = ["--base-url", server.baseURL, "--state-dir", state] + (message.map { ["--message", $0] } ?? [])
            + (key.map { ["--key", $0] } ?? [])
        return try ServiceProcess(
            arguments, environment: ServiceProcess.cleanEnvironment, binary: ServiceProcess.built("rk-crash-probe"))
    }

    /// Kills `first` with SIGKILL, runs `meanwhile`, starts a probe again on the same state folder, and checks
    /// that the one call started once, its result was accepted once, and the turn's answer says `answerContains`.
    static func killAndRestart(
        _ first: ServiceProcess, _ backend: ReferenceBackend, _ server: LoopbackHTTPServer, _ state: String,
        answerContains: String, key: String? = nil, meanwhile: () -> Void = {}
    ) async throws {
        first.signal(SIGKILL)
        _ = await first.exitStatus()
        meanwhile()
        let second = try probe(server, state, key: key)
        #expect(await second.exitStatus() == 0, "stdout: \(second.stdout)\nstderr: \(second.stderr)")
        await backend.waitForIdleTurns()
        let calls = startedCalls([first, second])
        #expect(calls.count == 1)
        let callID = try #require(calls.first)
        #expect(backend.counters.toolResults[callID]?.accepted == 1)
        let session = try #require(backend.sessionIDs.first)
        let answer = try #require(backend.events(inSession: session).last { $0.type == "turn_complete" })
        #expect(answer.frame.contains(answerContains))
    }

    static func startedCalls(_ processes: [ServiceProcess]) -> [String] {
        processes.flatMap(\.stdoutLines).filter { $0.hasPrefix("started ") }.map { String($0.dropFirst(8)) }
    }

    @Test func aCallKilledWhileRunningIsAnsweredOnceByTheNextProcessAndNeverRunAgain() async throws {
        try await Self.withBackend { backend, server, state in
            let first = try Self.probe(server, state, message: "hold on")
            #expect(await first.waitFor { $0.contains("started ") }, "stderr: \(first.stderr)")
            try await Self.killAndRestart(first, backend, server, state, answerContains: "Interrupted by a client restart")
        }
    }

    /// Killed while a person was still to decide: the call never ran, and the next process says so (not "it may
    /// or may not have completed").
    @Test func aCallKilledWhileWaitingForApprovalIsAnsweredAsNotRunByTheNextProcess() async throws {
        try await Self.withBackend { backend, server, state in
            let first = try Self.probe(server, state, message: "guarded one")
            #expect(await first.waitFor { $0.contains("awaiting ") }, "stderr: \(first.stderr)")
            first.signal(SIGKILL)
            _ = await first.exitStatus()
            let second = try Self.probe(server, state)
            #expect(await second.exitStatus() == 0, "stdout: \(second.stdout)\nstderr: \(second.stderr)")
            await backend.waitForIdleTurns()
            #expect(Self.startedCalls([first, second]).isEmpty)
            let callID = try #require(first.stdoutLines.first { $0.hasPrefix("awaiting ") }?.dropFirst(9))
            #expect(backend.counters.toolResults[String(callID)]?.accepted == 1)
            let session = try #require(backend.sessionIDs.first)
            let answer = try #require(backend.events(inSession: session).last { $0.type == "turn_complete" })
            #expect(answer.frame.contains("Interrupted by a client restart before it ran"), "\(answer.frame)")
        }
    }

    @Test func aHostKeysCallKilledWhileRunningIsAnsweredOnceByTheNextProcessInTheSameSession() async throws {
        try await Self.withBackend(Self.killAHostKeyMidCall)
    }

    static func killAHostKeyMidCall(backend: ReferenceBackend, server: LoopbackHTTPServer, state: String) async throws {
        let first = try probe(server, state, message: "hold on", key: "user-42")
        #expect(await first.waitFor { $0.contains("started ") }, "stderr: \(first.stderr)")
        let connected = first.stdoutLines.filter { $0.hasPrefix("connected ") }
        try await killAndRestart(
            first, backend, server, state, answerContains: "Interrupted by a client restart", key: "user-42")
        // The key's folder brought back its device id and session: the same session, resumed by cursor.
        let sessions = backend.sessionIDs
        #expect(sessions.count == 1)
        #expect(connected == ["connected " + (sessions.first ?? "?")])
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: state + "/sessions")) ?? []
        #expect(folders.count == 1)
        #expect(folders.filter { $0.contains("user-42") }.isEmpty)
    }

    /// A host's user whose result was being posted when the process died, and who never asks again: the next
    /// process, started for another user, finds the key's folder and posts the result in the same session.
    @Test func aResultAHostKeyLeftUndeliveredIsPostedByTheNextProcessThoughItsUserNeverReturns() async throws {
        try await Self.withBackend { backend, server, state in
            // Held until the end: the dead process's post never reaches the turn.
            backend.configuration.faults.stall(FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results"))
            defer { backend.configuration.faults.releaseStalls() }
            let first = try Self.probe(server, state, message: "quick one", key: "user-42")
            await backend.configuration.faults.waitForStalledRequests(count: 1)
            first.signal(SIGKILL)
            _ = await first.exitStatus()
            let second = try Self.probe(server, state, key: "user-7")
            #expect(await second.exitStatus() == 0, "stdout: \(second.stdout)\nstderr: \(second.stderr)")
            await backend.waitForIdleTurns()
            let calls = Self.startedCalls([first, second])
            #expect(calls.count == 1)
            let callID = try #require(calls.first)
            #expect(backend.counters.toolResults[callID]?.accepted == 1)
            let firstSession = try #require(first.stdoutLines.first { $0.hasPrefix("connected ") }?.dropFirst(10))
            let answer = try #require(
                backend.events(inSession: String(firstSession)).last { $0.type == "turn_complete" })
            #expect(answer.frame.contains("quick: done"))
            // The key's own session took the result: no session was made for it, only one for the other user.
            #expect(backend.sessionIDs.count == 2)
        }
    }

    @Test func aResultKilledWhilePostingIsPostedOnceByTheNextProcessAndTheCallNotRunAgain() async throws {
        try await Self.withBackend { backend, server, state in
            let toolResults = FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results")
            backend.configuration.faults.stall(toolResults)
            let first = try Self.probe(server, state, message: "quick one")
            await backend.configuration.faults.waitForStalledRequests(count: 1)
            try await Self.killAndRestart(first, backend, server, state, answerContains: "quick: done") {
                backend.configuration.faults.releaseStalls()
            }
        }
    }
}
