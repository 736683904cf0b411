import Foundation
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// Runs the built `rk-service` against an in-process reference backend and talks to it over stdin and a socket.
@Suite(.timeLimit(.minutes(1)))
struct ServiceRequestTests {
    @Test func aMessageOnStdinIsAnsweredWithTheToolResultInTheAnswer() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send(#"{"id": "1", "message": "What time is it?"}"#)
            let answer = try await service.answer(id: "1")
            #expect(answer["status"] as? String == "ok")
            #expect((answer["answer"] as? String)?.contains("The get_local_time returned") == true)
            #expect((answer["answer"] as? String)?.contains("utc offset: ") == true)
            let calls = try #require(answer["tool_calls"] as? [[String: Any]])
            #expect(calls.count == 1)
            #expect(calls.first?["function"] as? String == "get_local_time")
            #expect(calls.first?["status"] as? String == "completed")
            service.closeInput()
            #expect(await service.exitStatus() == 0)
            #expect(harness.backend.counters.toolResults.values.map(\.accepted) == [1])
        }
    }

    @Test func aMalformedLineGetsAnErrorLineAndTheServiceKeepsWorking() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send("this is not json")
            service.send(#"{"id": "no-text", "message": ""}"#)
            service.send(#"{"id": "2", "message": "what time is it"}"#)
            let answer = try await service.answer(id: "2")
            #expect(answer["status"] as? String == "ok")
            let lines = service.stdoutLines
            #expect(lines.count == 3)
            let withoutID = lines.filter { !$0.contains(#""id":"#) }
            #expect(withoutID.count == 1)
            #expect(withoutID.first?.hasPrefix(#"{"error":"the line is not valid JSON"#) == true)
            #expect(withoutID.first?.hasSuffix(#","status":"error"}"#) == true)
            let empty = try await service.answer(id: "no-text")
            #expect(empty["status"] as? String == "error")
            #expect(empty["error"] as? String == "message must be a non-empty string")
            service.closeInput()
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func theStatusCommandReportsTheConnectionTheSessionAndTheCounts() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send(#"{"id": "1", "message": "how much free space is on disk"}"#)
            _ = try await service.answer(id: "1")
            service.send(#"{"id": "2", "command": "status"}"#)
            let status = try await service.answer(id: "2")
            #expect(status["status"] as? String == "ok")
            #expect(status["connection"] as? String == "active")
            let sessionID = try #require(status["session_id"] as? String)
            #expect(!sessionID.isEmpty)
            let counts = try #require(status["counts"] as? [String: Int])
            #expect(counts["requests_answered"] == 1)
            #expect(counts["requests_failed"] == 0)
            #expect(counts["requests_in_flight"] == 0)
            #expect(counts["tool_calls"] == 1)
            service.closeInput()
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func messagesSentBackToBackAreAnsweredOneTurnAfterTheOther() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send(#"{"id": "1", "message": "what time is it"}"#)
            service.send(#"{"id": "2", "message": "how much free space is on disk"}"#)
            let first = try await service.answer(id: "1")
            let second = try await service.answer(id: "2")
            #expect(first["status"] as? String == "ok")
            #expect(second["status"] as? String == "ok")
            #expect((second["answer"] as? String)?.contains("The get_disk_usage returned") == true)
            service.closeInput()
            #expect(await service.exitStatus() == 0)
            #expect(harness.backend.counters.turnsStarted == 2)
        }
    }

    @Test func aCallThePolicyDoesNotAllowIsReportedAsDeclined() async throws {
        try await ServiceHarness.run { harness in
            let service = try harness.launch()
            service.send(#"{"id": "1", "message": "show me the log path: /var/log/syslog"}"#)
            let answer = try await service.answer(id: "1")
            let calls = try #require(answer["tool_calls"] as? [[String: Any]])
            #expect(calls.first?["function"] as? String == "read_log_tail")
            #expect(calls.first?["status"] as? String == "declined")
            #expect(calls.first?["error"] as? String == "Denied by policy")
            service.closeInput()
            #expect(await service.exitStatus() == 0)
        }
    }

    @Test func theUnixSocketServesRequestsAndIsRemovedOnShutdown() async throws {
        try await ServiceHarness.run { harness in
            let path = harness.directory + "/rk.sock"
            let service = try harness.launch(["--socket", path])
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            let client = try UnixStreamClient(path: path)
            client.send(#"{"id": "s1", "message": "what time is it"}"#)
            client.send(#"{"id": "s2", "command": "status"}"#)
            let lines = await offThePool { [client.readLine(), client.readLine()] }
            let joined = lines.compactMap { $0 }.joined(separator: "\n")
            #expect(joined.contains(#""id":"s1""#) && joined.contains("The get_local_time returned"))
            #expect(joined.contains(#""id":"s2""#) && joined.contains(#""connection":"active""#))
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
