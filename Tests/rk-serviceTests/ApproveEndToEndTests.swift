import Foundation
import ResolveKitChildProcess
import Glibc
import ResolveKitTesting
import Testing

/// A headless `rk-service` whose policy says "ask", and operators deciding from other terminals with
/// `rk-approve`: one in a pseudo-terminal (through `script`), one with one-shot commands.
@Suite(.timeLimit(.minutes(2)))
struct ApproveEndToEndTests {
    static let approve = ServiceProcess.built("rk-approve")

    /// `rk-approve ARGUMENTS` in a pseudo-terminal: `script` gives it a terminal and forwards our stdin to it.
    static func inTerminal(_ arguments: [String]) throws -> ServiceProcess {
        let command = ([approve.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = ServiceProcess.cleanEnvironment
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = "120"
        return try ServiceProcess(
            ["-qfec", command, "/dev/null"], environment: environment, binary: URL(fileURLWithPath: "/usr/bin/script"))
    }

    /// Runs `rk-approve ARGUMENTS` to the end (no terminal); returns its exit status and output.
    static func once(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = try ServiceProcess(arguments, environment: ServiceProcess.cleanEnvironment, binary: approve)
        process.closeInput()
        let status = await process.exitStatus()
        return (status, process.stdout + process.stderr)
    }

    @Test func anOperatorApprovesFromAnotherTerminalAndTheAuditTrailNamesThem() async throws {
        try await ServiceHarness.run { harness in
            let socket = harness.directory + "/rk.sock"
            let audit = harness.directory + "/audit.jsonl"
            let policy = harness.directory + "/policy.json"
            try Data(#"{"default": "ask"}"#.utf8).write(to: URL(fileURLWithPath: policy))
            try Data("hello".utf8).write(to: URL(fileURLWithPath: harness.directory + "/notes.txt"))
            let service = try harness.launch([
                "--socket", socket, "--policy", policy, "--allowed-root", harness.directory, "--audit-log", audit,
            ])
            #expect(await service.waitFor(\.stderr) { $0.contains("msg=\"ready\"") || $0.contains("msg=ready") })
            let watcher = try Self.inTerminal(["--socket", socket])
            #expect(await watcher.waitFor { $0.contains("watching for calls") })

            // The first call is approved at the watcher's checklist.
            let client = try UnixStreamClient(path: socket)
            client.send(#"{"id": "m1", "message": "list_directory path: \#(harness.directory)"}"#)
            #expect(await watcher.waitFor { $0.contains("Approve 1 tool call?") })
            #expect(watcher.stdout.contains("list_directory"))
            watcher.send("a")
            let first = try #require(await offThePool { client.readLine() })
            #expect(first.contains(#""id":"m1""#) && first.contains(#""status":"completed""#), "\(first)")

            // The second is declined by another operator with a one-shot command while the watcher shows it;
            // the first decision wins and the watcher says who made it.
            client.send(#"{"id": "m2", "message": "list_directory path: \#(harness.directory)"}"#)
            let listed = await Self.pendingCallID(socket)
            let callID = try #require(listed)
            let declined = try await Self.once(["--socket", socket, "decline", callID, "--reason", "not now"])
            #expect(declined.status == 0, "\(declined.output)")
            #expect(await watcher.waitFor { $0.contains("call \(callID) was declined by person uid \(getuid())") })
            let second = try #require(await offThePool { client.readLine() })
            #expect(second.contains(#""id":"m2""#) && second.contains("not now"), "\(second)")
            let again = try await Self.once(["--socket", socket, "approve", callID])
            #expect(again.status == 1 && again.output.contains("already decided") || again.output.contains("No call"))

            // A remembered allow with a rule lets the next matching call run without anyone asked; it is listed
            // and can be revoked.
            let remembered = try await Self.once([
                "--socket", socket, "remember", "list_directory", "--if",
                #"{"$.path": {"below": "\#(harness.directory)"}}"#,
            ])
            #expect(remembered.status == 0 && remembered.output.hasPrefix("remembered "), "\(remembered.output)")
            client.send(#"{"id": "m3", "message": "list_directory path: \#(harness.directory)"}"#)
            let third = try #require(await offThePool { client.readLine() })
            #expect(third.contains(#""id":"m3""#) && third.contains(#""status":"completed""#), "\(third)")
            let listing = try await Self.once(["--socket", socket, "list"])
            let id = try #require(
                remembered.output.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
            #expect(
                listing.output.contains(#""id":"\#(id)""#) && listing.output.contains(#""below""#), "\(listing.output)")
            let revoked = try await Self.once(["--socket", socket, "revoke", id])
            #expect(revoked.status == 0, "\(revoked.output)")
            #expect(!(try await Self.once(["--socket", socket, "list"])).output.contains(id))

            watcher.signal(SIGTERM)
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)

            // Both decisions are in the chained trail, by a person with this test's uid; an edit is detected.
            let lines = try String(contentsOfFile: audit, encoding: .utf8).split(separator: "\n")
            let decisions = lines.filter { $0.contains(#""kind":"decision""#) && $0.contains("list_directory") }
            #expect(decisions.count == 3)
            #expect(
                decisions.filter { $0.contains(#""kind":"person""#) && $0.contains(#""uid":\#(getuid())"#) }.count == 2)
            #expect(decisions.contains { $0.contains(#""kind":"remembered""#) })
            #expect(lines.contains { $0.contains(#""kind":"outcome""#) && $0.contains(#""status":"success""#) })
            let intact = try await Self.once(["--verify-audit", audit])
            #expect(intact.status == 0 && intact.output.contains("OK: \(lines.count) lines"), "\(intact.output)")
            var text = try String(contentsOfFile: audit, encoding: .utf8)
            text = text.replacingOccurrences(of: "not now", with: "not mow")
            try text.write(toFile: audit, atomically: true, encoding: .utf8)
            let broken = try await Self.once(["--verify-audit", audit])
            #expect(broken.status == 1 && broken.output.contains("the line was changed"), "\(broken.output)")
        }
    }

    /// The id of the first call waiting, from `rk-approve list` (bounded wait).
    static func pendingCallID(_ socket: String) async -> String? {
        for _ in 0..<100 where !Task.isCancelled {
            if let listed = try? await once(["--socket", socket, "list"]),
                let line = listed.output.split(separator: "\n").first(where: { $0.hasPrefix("{") }),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let pending = object["pending"] as? [[String: Any]],
                let calls = pending.first?["calls"] as? [[String: Any]], let id = calls.first?["call_id"] as? String
            {
                return id
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
