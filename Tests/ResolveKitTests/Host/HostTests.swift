import Foundation
import ResolveKit
import ResolveKitTesting
import Synchronization
import Testing

/// The host's functions: one that names the caller its context carries.
enum HostTools {
    enum Caller: ResolveKitDependencies.Key {
        static let defaultValue = "nobody"
    }

    struct WhoAmI: AnyResolveKitFunction {
        static let resolveKitName = "who_am_i"
        static let resolveKitDescription = "Names the calling user."
        static let resolveKitRequiresApproval = false
        static let resolveKitParametersSchema: JSONObject = ["type": "object"]
        static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
            ExecutionLedger.shared.record(context)
            return .string(context[Caller.self])
        }
    }

    static let script = AgentScript(rules: [
        .init(.keywords(["who"]), rounds: [.toolCalls([.init("who_am_i")]), .text(AgentScript.doneTemplate)]),
        .init(.keywords(["hello"]), rounds: [.text("Hello.")]),
    ])

    static func answer(for user: String) -> String { #"Done. The who_am_i returned "\#(user)"."# }
}

@Suite(.timeLimit(.minutes(1)))
struct HostTests {
    static func withHost(
        _ options: ResolveKitHost.Options = ResolveKitHost.Options(),
        clock: ResolveKitClock = .continuous, logger: ResolveKitLogger? = nil,
        _ body: (ResolveKitHost, RuntimeHarness) async throws -> Void
    ) async throws {
        try await RuntimeHarness.run(ReferenceBackend.Configuration(script: HostTools.script)) { harness in
            var configuration = harness.configuration(clock: clock, persistent: true)
            configuration.functions = [HostTools.WhoAmI.self]
            if let logger { configuration.logger = logger }
            var options = options
            options.dependencies = { key in
                var dependencies = ResolveKitDependencies()
                dependencies[HostTools.Caller.self] = key
                return dependencies
            }
            let host = ResolveKitHost(configuration: configuration, options: options)
            do {
                try await body(host, harness)
            } catch {
                await host.drain(timeout: .seconds(2))
                throw error
            }
            await host.drain(timeout: .seconds(2))
        }
    }

    @Test func twoKeysNeverShareASessionAFolderOrADependency() async throws {
        try await Self.withHost { host, harness in
            async let alice = host.ask("who am i", as: "alice")
            async let bob = host.ask("who am i", as: "bob@example.com")
            #expect(try await alice.text == HostTools.answer(for: "alice"))
            #expect(try await bob.text == HostTools.answer(for: "bob@example.com"))

            let aliceSession = try await host.session(for: "alice").sessionID
            let bobSession = try await host.session(for: "bob@example.com").sessionID
            #expect(aliceSession != nil && bobSession != nil && aliceSession != bobSession)
            let folders = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory + "/sessions")
            #expect(folders.count == 2)
            #expect(folders.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
            #expect(harness.backend.counters.functionRegistrations == 1)
        }
    }

    /// An operator tells two users' log lines apart (two sessions reconnecting, a call after a restart) by the
    /// `key` each carries: the digest its folder is named by, never the key.
    @Test func aSessionsLogLinesNameItsKeyByDigestNeverByTheKey() async throws {
        let records = Mutex<[ResolveKitLogger.Record]>([])
        try await RuntimeHarness.run(ReferenceBackend.Configuration(script: HostTools.script)) { harness in
            var configuration = harness.configuration(persistent: true)
            configuration.functions = [HostTools.WhoAmI.self]
            configuration.logger = ResolveKitLogger(label: "test", minimumLevel: .trace) { record in
                records.withLock { $0.append(record) }
            }
            let host = ResolveKitHost(configuration: configuration)
            _ = try await host.ask("who am i", as: "bob@example.com")
            await host.drain(timeout: .seconds(2))
        }
        let lines = records.withLock { $0 }
        let digest = String(SHA256.hexDigest("bob@example.com").prefix(12))
        #expect(lines.contains { $0.metadata["key"] == digest && $0.message.contains("who_am_i") })
        #expect(!lines.contains { $0.metadata.values.contains { $0.contains("bob@example.com") } })
    }

    @Test func eachKeysHistoryIsItsOwnConversation() async throws {
        try await Self.withHost { host, _ in
            _ = try await host.ask("who am i", as: "alice")
            _ = try await host.ask("who am i", as: "bob")
            let alice = try await host.history(of: "alice")
            #expect(alice.messages.last?.text == HostTools.answer(for: "alice"))
            #expect(!alice.messages.contains { $0.text == HostTools.answer(for: "bob") })
            let bobCursor = try #require(try await host.history(of: "bob", limit: 1).older)
            await #expect(throws: ResolveKitError.self) { try await host.history(of: "alice", before: bobCursor) }
        }
    }

    @Test func manyKeysAtOnceRegisterTheFunctionsOnce() async throws {
        try await Self.withHost { host, harness in
            let users = (1...8).map { "user-\($0)" }
            let answers = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for user in users { group.addTask { (user, try await host.ask("who am i", as: user).text) } }
                return try await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
            }
            #expect(answers == Dictionary(uniqueKeysWithValues: users.map { ($0, HostTools.answer(for: $0)) }))
            #expect(harness.backend.counters.functionRegistrations == 1)
            #expect(host.openSessionKeys == users.sorted())
        }
    }

    /// The first 12 hexadecimal digits of SHA-256("a"): how the host's log lines name key `a`.
    static let logNameOfA = "ca978112ca1b"

    @Test func anEvictedKeyResumesItsOwnSessionAndNothingRunsTwice() async throws {
        let records = Mutex<[ResolveKitLogger.Record]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .info) { record in
            records.withLock { $0.append(record) }
        }
        let options = ResolveKitHost.Options(maxOpenSessions: 2, idleTimeout: nil)
        try await Self.withHost(options, logger: logger) { host, harness in
            let first = try await host.ask("who am i", as: "a")
            let sessionOfA = try await host.session(for: "a").sessionID
            _ = try await host.ask("hello", as: "b")
            _ = try await host.ask("hello", as: "c")
            #expect(!host.openSessionKeys.contains("a"))
            let closing = records.withLock { $0 }.first { $0.message.hasPrefix("Closing the session") }
            #expect(
                closing?.message == "Closing the session: more than 2 sessions are open and it was used least recently")
            #expect(closing?.metadata["key"] == Self.logNameOfA, "the key's digest, never the key")

            let second = try await host.ask("who am i", as: "a")
            #expect(try await host.session(for: "a").sessionID == sessionOfA)
            #expect(second.text == HostTools.answer(for: "a"))
            let callIDs = (first.toolCalls + second.toolCalls).map(\.id)
            #expect(Set(callIDs).count == 2)
            #expect(callIDs.allSatisfy { ExecutionLedger.shared.count($0) == 1 })
            #expect(host.openSessionKeys.count <= 2)
        }
    }

    @Test func anIdleSessionClosesItsStreamOnTheClockAndResumesOnNextUse() async throws {
        let clock = ManualClock()
        let options = ResolveKitHost.Options(idleTimeout: .seconds(60))
        let records = Mutex<[ResolveKitLogger.Record]>([])
        let logger = ResolveKitLogger(label: "test", minimumLevel: .info) { record in
            records.withLock { $0.append(record) }
        }
        try await Self.withHost(options, clock: ResolveKitClock(clock), logger: logger) { host, harness in
            _ = try await host.ask("hello", as: "a")
            let session = try await host.session(for: "a").sessionID
            #expect(harness.backend.counters.openStreams == 1)

            // Time passes only when the test says so; the session closes once its idle time is up.
            #expect(await pollUntil { clock.advance(by: .seconds(5)); return host.openSessionKeys.isEmpty })
            #expect(clock.now.offset >= .seconds(60))
            #expect(await pollUntil { harness.backend.counters.openStreams == 0 })
            let closing = records.withLock { $0 }.first { $0.message.hasPrefix("Closing the session") }
            #expect(closing?.message == "Closing the session: idle for 60 s")

            #expect(try await host.ask("who am i", as: "a").text == HostTools.answer(for: "a"))
            #expect(try await host.session(for: "a").sessionID == session)
            #expect(harness.backend.counters.streamConnections == 2)
        }
    }

    @Test func aDrainedHostOpensNoMoreSessions() async throws {
        try await Self.withHost { host, _ in
            _ = try await host.ask("hello", as: "a")
            await host.drain(timeout: .seconds(2))
            #expect(host.openSessionKeys.isEmpty)
            await #expect(throws: ResolveKitError.self) { try await host.ask("hello", as: "a") }
        }
    }

    /// The folder is the first host's from its first key until it is drained, whichever key a rival asks for: a
    /// rival that could take keys as they closed idle would take a running service's users from under it.
    @Test func aRivalHostOnTheFolderIsRefusedAsLockedUntilTheFirstIsDrained() async throws {
        try await Self.withHost { host, harness in
            _ = try await host.ask("hello", as: "a")
            await host.close("a")
            var configuration = host.configuration
            configuration.functions = [HostTools.WhoAmI.self]
            let rival = ResolveKitHost(configuration: configuration)
            for key in ["a", "b"] {
                do throws(ResolveKitError) {
                    _ = try await rival.ask("hello", as: key)
                    Issue.record("a second host opened \(key) in a folder another host holds")
                } catch {
                    #expect(error.code == .stateLocked)
                    #expect(error.message.contains("process \(getpid())") || error.message.contains("this process"))
                }
            }
            await host.drain(timeout: .seconds(2))
            #expect(try await rival.session(for: "b").sessionID != nil)
            await rival.drain()
        }
    }
}
