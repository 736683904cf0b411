import Foundation
import ResolveKitChildProcess
import ResolveKitCore
import ResolveKitTesting
import Testing

/// Signals, draining, systemd readiness, secrets and exit codes of the built `rk-service`.
@Suite(.timeLimit(.minutes(1)))
struct ServiceLifecycleTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalWhileIdleExitsCleanlyAndLeavesTheSessionInTheStateFolder(signal: Int32) async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send(#"{"id": "1", "command": "status"}"#)
            let sessionID = try #require(try await service.answer(id: "1")["session_id"] as? String)
            service.signal(signal)
            #expect(await service.exitStatus() == 0)
            // Lines without a user share one session, kept like every user's in a folder named by its key's digest.
            let shared = harness.stateDirectory + "/sessions/" + SHA256.hexDigest("")
            let saved = try String(contentsOfFile: shared + "/session.json", encoding: .utf8)
            #expect(saved.contains(sessionID))
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            #expect(service.stderr.contains(#"msg="draining" reason=\#(name)"#))
        }
    }

    @Test func sigtermDuringATurnDrainsTheRunningCallsResultBeforeExiting() async throws {
        try await ServiceHarness.run { harness in
            harness.backend.configuration.faults.delay(
                .init("POST", "/v1/sessions/*/tool-results"), by: .milliseconds(1500))
            let service = try harness.launch()
            service.send(#"{"id": "1", "message": "what time is it"}"#)
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="tool call completed""#) })
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            #expect(harness.backend.counters.toolResults.values.map(\.accepted) == [1])
            let answer = try await service.answer(id: "1")
            let calls = try #require(answer["tool_calls"] as? [[String: Any]])
            #expect(calls.first?["status"] as? String == "completed")
            #expect(service.stderr.contains(#"msg="stopped" reason=SIGTERM"#))
        }
    }

    @Test(arguments: ["path", "abstract"])
    func notifySocketReceivesReadyOnceConnectedAndStoppingOnDrain(kind: String) async throws {
        try await ServiceHarness.run { harness in
            let name = kind == "path" ? harness.directory + "/notify" : "@rk-service-test-" + UUID().uuidString
            let receiver = try NotifySocketReceiver(name: name)
            let service = try harness.launch(environment: ["NOTIFY_SOCKET": name])
            let untilReady = await offThePool { receiver.receive(until: "READY=1") }
            #expect(untilReady.last?.contains("READY=1") == true)
            #expect(untilReady.last?.contains("STATUS=Serving requests on stdin") == true)
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            service.signal(SIGTERM)
            let untilStopping = await offThePool { receiver.receive(until: "STOPPING=1") }
            #expect(untilStopping.last?.contains("STOPPING=1") == true)
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func logsAreStructuredLinesWithoutTheAPIKey() async throws {
        try await ServiceHarness.run { harness in
            let keyFile = harness.directory + "/api-key"
            try (ServiceHarness.apiKey + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
            let service = try harness.launch(
                ["--api-key-file", keyFile, "--log-level", "trace"], environment: ["RESOLVEKIT_API_KEY": ""])
            service.send(#"{"id": "1", "message": "what time is it"}"#)
            _ = try await service.answer(id: "1")
            service.closeInput()
            #expect(await service.exitStatus() == 0)
            let lines = service.stderr.split(separator: "\n")
            #expect(lines.contains { $0.contains(#" level=info label=resolvekit msg="connection active""#) })
            #expect(lines.allSatisfy { $0.hasPrefix("time=") && $0.contains(" level=") && $0.contains(" msg=") })
            // One shared session: no key to tell apart, so no `key=` (its digest would be the empty string's).
            #expect(!lines.contains { $0.contains(" key=") })
            #expect(!service.stderr.contains(ServiceHarness.apiKey))
            #expect(!service.stdout.contains(ServiceHarness.apiKey))
        }
    }

    static let usageErrors: [([String], String)] = [
        (["--bogus"], "unknown option '--bogus'"),
        (["--api-key", "rk_visible_in_ps"], "--api-key would show the key to every user in `ps`"),
        (["--base-url", "http://127.0.0.1:9"], "no API key"),
        (["--base-url", "http://127.0.0.1:9", "--api-key-file", "/nonexistent/key"], "cannot read the API key file"),
        (["--base-url", "ftp://example.com"], "--base-url 'ftp://example.com' is not an http:// or https:// URL"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitWith64AndSayWhatIsWrong(arguments: [String], message: String) async throws {
        let service = try ServiceProcess(arguments, environment: ServiceProcess.cleanEnvironment)
        #expect(await service.exitStatus() == 64)
        #expect(service.stderr.contains("rk-service: error: " + message))
        #expect(!service.stderr.contains("rk_visible_in_ps"))
    }

    @Test func versionPrintsThePackageVersion() async throws {
        let service = try ServiceProcess(["--version"], environment: ServiceProcess.cleanEnvironment)
        #expect(await service.exitStatus() == 0)
        #expect(await service.waitFor { $0.hasPrefix("rk-service 1.") })
    }

    @Test func helpShowsARealExampleAndExitsCleanly() async throws {
        let service = try ServiceProcess(["--help"], environment: ServiceProcess.cleanEnvironment)
        #expect(await service.exitStatus() == 0)
        #expect(await service.waitFor { $0.contains("EXAMPLE:") && $0.contains("rk-service --base-url") })
        #expect(service.stdout.contains("3   the backend could not be reached"))
        #expect(service.stdout.contains("69  the backend refused this host"))
        #expect(service.stdout.contains("NETWORK OPTIONS:\n  --ca-file FILE"))
    }

    @Test func anUnreachableBackendExitsWith3AndTheCauseInWords() async throws {
        let closed = try LoopbackRefusingPort()
        defer { closed.close() }
        let url = closed.baseURL
        var environment = ServiceProcess.cleanEnvironment
        environment["RESOLVEKIT_API_KEY"] = ServiceHarness.apiKey
        let state = "/tmp/rk-service-test-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let service = try ServiceProcess(
            ["--base-url", url, "--connect-attempts", "0", "--state-dir", state], environment: environment)
        #expect(await service.exitStatus() == 3)
        #expect(service.stderr.contains(#"msg="cannot connect""#))
        #expect(service.stderr.contains(#"cause="connection failed""#), "\(service.stderr)")
    }
}
