import ResolveKitCore
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct FunctionRegistryTests {
    @Test("Bulk sync answers FunctionOut items with jsonb key order, as the transcript shows")
    func functionOut() async throws {
        let harness = BackendHarness()
        let reply = await harness.registerTranscriptFunctions()
        #expect(reply.status == 200)
        let id = try #require(reply.json[0]?["id"]?.stringValue)
        let expected =
            #"{"id":"\#(id)","app_id":"00000000-0000-4000-8000-0000000a0001","name":"get_local_time","description":"Returns the current local time on the user's device.","description_override":null,"parameters_schema":{"type":"object","required":[],"properties":{}},"is_active":true,"timeout_seconds":30,"availability":{},"source":"app_inline","pack_name":null,"requires_approval":false,"created_at":"2026-11-22T01:52:08.500000Z"}"#
        #expect(reply.body.hasPrefix("[" + expected + ","))
        #expect(
            reply.body.contains(
                #""properties":{"on":{"type":"boolean","description":"true = on, false = off"},"room":{"type":"string","description":"Room name"}}"#
            ))
    }

    @Test("Bulk sync is a full replace: unlisted functions become inactive and leave the list and eligibility")
    func fullReplace() async {
        let harness = BackendHarness()
        await harness.registerTranscriptFunctions()
        let session = await harness.createSession()
        await harness.send("PUT", "/v1/functions/bulk", body: #"{"functions": [{"name": "set_lights"}]}"#)
        let listed = await harness.send("GET", "/v1/functions")
        #expect(listed.json.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["set_lights"])
        #expect(listed.json[0]?["requires_approval"] == true)
        #expect(listed.json[0]?["timeout_seconds"] == 30)
        let eligible = await harness.send("GET", "/v1/functions/eligible?session_id=\(session.id)")
        #expect(eligible.json.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["set_lights"])
    }

    @Test("Eligibility honours the allow-list and availability.platforms")
    func platforms() async {
        let harness = BackendHarness()
        await harness.send(
            "PUT", "/v1/functions/bulk",
            body:
                #"{"functions": [{"name": "a", "availability": {"platforms": ["ios"]}}, {"name": "b", "availability": {"platforms": ["linux"]}}, {"name": "c"}, {"name": "d"}]}"#
        )
        let session = await harness.createSession(functions: ["a", "b", "c"])
        let eligible = await harness.send("GET", "/v1/functions/eligible?session_id=\(session.id)")
        #expect(eligible.json.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["b", "c"])
        let unknown = await harness.send(
            "GET", "/v1/functions/eligible?session_id=2f0a4c9e-0000-4000-8000-000000000000")
        #expect(unknown.status == 404)
        #expect(unknown.body == #"{"detail":"Session not found"}"#)
    }

    @Test(
        "Bulk sync rejects unknown keys, bad limits and more than 512 functions with 422",
        arguments: [
            (#"{"functions": [{"name": "a", "x": 1}]}"#, "extra_forbidden"),
            (#"{"functions": [], "y": 1}"#, "extra_forbidden"),
            (#"{"functions": [{"name": ""}]}"#, "string_too_short"),
            (#"{"functions": [{"name": "a", "timeout_seconds": 0}]}"#, "greater_than_equal"),
            (#"{"functions": [{"name": "a", "timeout_seconds": 301}]}"#, "less_than_equal"),
            (#"{"functions": [{"name": "a", "source": "other"}]}"#, "string_pattern_mismatch"),
            (#"{"functions": [{"name": "a", "parameters_schema": []}]}"#, "dict_type"),
            (#"{}"#, "missing"),
            (
                #"{"functions": [\#(Array(repeating: #"{"name": "f"}"#, count: 513).joined(separator: ","))]}"#,
                "too_long"
            ),
        ])
    func validation(body: String, type: String) async {
        let reply = await BackendHarness().send("PUT", "/v1/functions/bulk", body: body)
        #expect(reply.status == 422)
        #expect(reply.json["detail"]?[0]?["type"]?.stringValue == type)
    }

    @Test("The location of a nested error names the function index and field")
    func nestedLocation() async {
        let reply = await BackendHarness().send(
            "PUT", "/v1/functions/bulk", body: #"{"functions": [{"name": "a"}, {"name": "b", "x": 1}]}"#)
        #expect(reply.json["detail"]?[0]?["loc"] == ["body", "functions", 1, "x"])
    }
}
