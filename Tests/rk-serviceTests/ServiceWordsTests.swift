import Foundation
import ResolveKitChildProcess
import ResolveKit
import Testing

@testable import rk_service

/// rk-service says what happened in the words the rest of the package uses: a declined call is "declined", a
/// command is logged as fields, each call's outcome once.
@Suite(.timeLimit(.minutes(2)))
struct ServiceWordsTests {
    @Test func aCallDeclinedByAnOperatorIsDeclinedInTheReplyAndLoggedOnceInWords() async throws {
        try await ServiceHarness.run { harness in
            let socket = harness.directory + "/rk.sock"
            let policy = harness.directory + "/policy.json"
            try Data(#"{"default": "ask"}"#.utf8).write(to: URL(fileURLWithPath: policy))
            let service = try harness.launch([
                "--socket", socket, "--policy", policy, "--allowed-root", harness.directory,
            ])
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            let client = try UnixStreamClient(path: socket)
            client.send(#"{"id": "m1", "message": "list_directory path: \#(harness.directory)"}"#)
            let callID = try #require(await ApproveEndToEndTests.pendingCallID(socket))
            let declined = try await ApproveEndToEndTests.once([
                "--socket", socket, "decline", callID, "--reason", "not now",
            ])
            #expect(declined.status == 0, "\(declined.output)")
            let reply = try #require(await offThePool { client.readLine() })
            let object = try #require(JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
            let calls = try #require(object["tool_calls"] as? [[String: Any]])
            #expect(calls.first?["status"] as? String == "declined")
            #expect(calls.first?["error"] as? String == "not now")

            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            let lines = service.stderr.split(separator: "\n")
            let command = lines.filter { $0.contains(#"msg="approval command""#) }
            #expect(command.count == 1)
            let words = "call_ids=\(callID) command=decline reason=\"not now\""
            #expect(command.first?.contains(words) == true, "\(command)")
            #expect(!service.stderr.contains("Optional("))
            #expect(!service.stderr.contains("decline(callIDs"))
            let outcome = lines.filter { $0.contains("call_id=\(callID)") && $0.contains(#"msg="tool call "#) }
            #expect(outcome.count == 1, "\(outcome)")
            #expect(outcome.first?.contains(#" level=warning label=rk-service msg="tool call declined""#) == true)
        }
    }

    @Test func approvalCommandsAreLoggedAsFieldsWithoutWhatAPersonTyped() {
        #expect(
            ApprovalCommand.decline(callIDs: ["c1", "c2"], sessionID: "s", reason: "no").logMetadata
                == ["command": "decline", "call_ids": "c1,c2", "session_id": "s", "reason": "no"])
        #expect(
            ApprovalCommand.approveEdited(callID: "c1", sessionID: nil, arguments: ["path": "/secret"]).logMetadata
                == ["command": "approve", "call_ids": "c1", "edited_arguments": "true"])
        #expect(
            ApprovalCommand.remember(function: "f", arguments: nil, conditions: nil, scope: .session("s1")).logMetadata
                == ["command": "remember", "function": "f", "scope": "session s1"])
    }
}
