import Foundation
import Glibc
import ResolveKit
import Synchronization
import Testing

@testable import rk_service

/// The pure parts of the service: line splitting, request parsing, turn folding, log formatting.
struct ServicePartsTests {
    static let stream = Array("{\"id\": \"1\"}\r\n\n  \nsecond line\nlast".utf8)

    @Test func linesAreTheSameWhereverTheInputIsSplit() {
        for cut in 0...Self.stream.count {
            var buffer = LineBuffer(maxBytes: 64)
            let lines = buffer.append(Self.stream[..<cut]) + buffer.append(Self.stream[cut...]) + buffer.finish()
            #expect(
                lines == [
                    .line(Array("{\"id\": \"1\"}".utf8)), .line(Array("second line".utf8)), .line(Array("last".utf8)),
                ])
        }
    }

    @Test func anOverlongLineIsReportedOnceAndTheNextLineStillArrives() {
        var buffer = LineBuffer(maxBytes: 8)
        let lines = buffer.append(Array("0123456789abcdef\nok\n".utf8))
        #expect(lines == [.tooLong, .line(Array("ok".utf8))])
    }

    @Test(arguments: [
        (#"{"id": "1", "message": "hi"}"#, ServiceRequest(id: "1", kind: .message("hi"))),
        (#"{"id": 7, "command": "status"}"#, ServiceRequest(id: 7, kind: .status)),
        (#"{"message": "no id"}"#, ServiceRequest(id: nil, kind: .message("no id"))),
        (#"{"id": "u", "user": "alice", "message": "hi"}"#, ServiceRequest(id: "u", kind: .message("hi"), user: "alice")),
        (
            #"{"command": "decline", "call_ids": ["c1", "c2"], "reason": "no", "terminal": "/dev/pts/3"}"#,
            ServiceRequest(
                id: nil, kind: .approval(.decline(callIDs: ["c1", "c2"], sessionID: nil, reason: "no")),
                terminal: "/dev/pts/3")
        ),
        (
            #"{"command": "approve", "call_id": "c1", "arguments": {"lines": 5}}"#,
            ServiceRequest(
                id: nil, kind: .approval(.approveEdited(callID: "c1", sessionID: nil, arguments: ["lines": 5])))
        ),
        (#"{"command": "subscribe"}"#, ServiceRequest(id: nil, kind: .approval(.subscribe))),
        (
            #"{"command": "remember", "function": "f"}"#,
            ServiceRequest(id: nil, kind: .approval(.remember(function: "f", arguments: nil, conditions: nil, scope: .always)))
        ),
        // rk-approve sends a null terminal when it runs without one.
        (#"{"command": "approvals", "terminal": null}"#, ServiceRequest(id: nil, kind: .approval(.list))),
    ])
    func requestsAreParsed(line: String, expected: ServiceRequest) throws {
        #expect(try ServiceRequest.parse(Array(line.utf8)) == expected)
    }

    @Test(arguments: [
        (#"[1, 2]"#, "a request must be a JSON object"),
        (
            #"{"id": "3", "command": "reboot"}"#,
            #"unknown command "reboot"; the commands are "status", "approvals", "subscribe", "approve", "decline", "remember", "revoke""#
        ),
        (#"{"command": "approve", "call_ids": []}"#, #""call_ids" must be a non-empty array of call ids"#),
        (#"{"command": "approve", "call_id": "c1"}"#, #"approve with "call_id" needs "arguments", an object (or use "call_ids")"#),
        (#"{"command": "remember", "function": "f", "scope": "tomorrow"}"#, #"scope must be "always", {"hours": N} or {"session": "<session id>"}"#),
        (#"{"command": "revoke"}"#, #"revoke needs "remembered_id""#),
        (
            #"{"id": "4", "message": "a", "command": "status"}"#,
            #"a request has either "message" or "command", not both"#
        ),
        (#"{"id": true, "message": "a"}"#, "id must be a string or a number"),
        (#"{"id": "5", "user": "", "message": "a"}"#, "user must be a string of 1 to 256 bytes"),
        (#"{"id": "6", "user": 42, "message": "a"}"#, "user must be a string of 1 to 256 bytes"),
        // Found by the ApprovalCommand fuzzer: each of these was dropped or kept without a word.
        (#"{"command": "approve", "call_ids": ["c1"], "session_id": 5}"#, #""session_id" must be a string"#),
        (#"{"command": "decline", "call_ids": ["c1"], "session_id": ["s"]}"#, #""session_id" must be a string"#),
        (#"{"command": "approve", "call_id": 5, "call_ids": ["c1"]}"#, #""call_id" must be a string"#),
        (
            #"{"command": "remember", "function": "f", "arguments": 5}"#,
            #""arguments" must be an object, the exact arguments of the calls to allow"#
        ),
        (
            #"{"command": "remember", "function": "f", "scope": {"hours": 8, "session": "s"}}"#,
            #"scope has "hours" and "session""#
        ),
        (#"{"command": "approvals", "terminal": 5}"#, #""terminal" must be a string"#),
    ])
    func unusableRequestsSayWhy(line: String, reason: String) {
        #expect(throws: ServiceRequest.Malformed.self) { try ServiceRequest.parse(Array(line.utf8)) }
        do {
            _ = try ServiceRequest.parse(Array(line.utf8))
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func anAnsweredTurnCarriesItsAnswerAndTheLastStateOfEachCall() {
        func call(_ id: String, _ name: String, _ status: ToolCallChecklistItem.Status) -> ToolCallChecklistItem {
            ToolCallChecklistItem(
                id: ToolCallID(id), functionName: name, humanDescription: "", arguments: [:], requiresApproval: false, status: status)
        }
        let result = ResolveKitTurnResult(
            turnID: "t1", ending: .answered, text: "It failed.",
            toolCalls: [call("c1", "get_disk_usage", .failed("disk is full")), call("c2", "get_local_time", .completed)])
        #expect(
            ServiceResponse.turn(result, id: "9").line
                == #"{"answer":"It failed.","id":"9","status":"ok","#
                + #""tool_calls":[{"error":"disk is full","function":"get_disk_usage","status":"failed"},"#
                + #"{"function":"get_local_time","status":"completed"}]}"#)
    }

    @Test func anAgentErrorIsAnErrorLineWithTheAgentsWords() {
        let result = ResolveKitTurnResult(turnID: "t1", ending: .agentError, text: "The model is unavailable")
        let response = ServiceResponse.turn(result, id: nil)
        #expect(response.isError)
        #expect(response.fields["error"] == "The model is unavailable")
    }

    @Test func aStoppedRuntimeSaysTheServiceIsShuttingDown() {
        let response = ServiceResponse.failure(ResolveKitError(.cancelled, "The runtime stopped"), id: nil)
        #expect(response.fields["error"] == "the service is shutting down; the turn did not finish")
    }

    /// A router tells "try again soon" from a permanent failure by the reply's code, not by its words.
    @Test func anErrorLineCarriesTheRuntimesCodeAndWhetherARetryMayWork() {
        let outage = ResolveKitError(
            .stateStore, "Cannot take the user key's lease in Redis: connect_refused", isRetryable: true)
        let response = ServiceResponse.failure(outage, id: "1")
        #expect(response.fields["code"] == "state_store")
        #expect(response.fields["retryable"] == true)
        let refused = ServiceResponse.failure(ResolveKitError(.invalidMessage, "A message must have 1 …"), id: "2")
        #expect(refused.fields["code"] == "invalid_message")
        #expect(refused.fields["retryable"] == false)
    }

    /// Lines start with their time, in UTC to the millisecond, unless the journal stamps them.
    @Test func logLinesStartWithTheirTimeInUTC() throws {
        let lines = Mutex<[String]>([])
        let log = StructuredLog(secrets: [], stampsTime: true) { line in lines.withLock { $0.append(line) } }
        let before = Date()
        log.logger(label: "rk-service", minimumLevel: .info).info("started")
        let line = try #require(lines.withLock { $0.first })
        let stamp = try #require(line.split(separator: " ").first?.dropFirst("time=".count))
        #expect(line.hasPrefix("time=") && line.hasSuffix(#" level=info label=rk-service msg="started""# + "\n"))
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(parser.date(from: String(stamp)), "\(stamp)")
        #expect(abs(date.timeIntervalSince(before)) < 5)
        let known = timespec(tv_sec: 1_780_000_000, tv_nsec: 7_000_000)
        #expect(StructuredLog.timestamp(known) == "2026-05-28T20:26:40.007Z")
    }

    @Test func logLinesQuoteWhatNeedsQuotingAndRedactSecrets() {
        let lines = Mutex<[String]>([])
        let log = StructuredLog(secrets: ["rk_secret"], stampsTime: false) { line in
            lines.withLock { $0.append(line) }
        }
        log.logger(label: "rk-service", minimumLevel: .info).info(
            "key rk_secret used", metadata: ["path": "/var/log", "note": "two words", "quote": "a\"b\nc"])
        log.logger(label: "rk-service", minimumLevel: .info).debug("dropped")
        #expect(
            lines.withLock { $0 } == [
                #"level=info label=rk-service msg="key [redacted] used" note="two words" path=/var/log quote="a\"b\nc""#
                    + "\n"
            ])
    }
}
