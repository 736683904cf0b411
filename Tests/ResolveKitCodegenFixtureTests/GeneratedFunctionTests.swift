import Foundation
import ResolveKitCore
import Testing

@testable import ResolveKitCodegenFixtures

/// Calls the fixture functions through the registry rk-codegen generated during the build (via the plugin).
@Suite(.timeLimit(.minutes(1)))
struct GeneratedFunctionTests {
    static let context = ResolveKitFunctionContext(sessionID: "session-1", requestID: "request-1")

    func function(_ name: String) throws -> any AnyResolveKitFunction.Type {
        try #require(ResolveKitAutoRegistry.functions.first { $0.resolveKitName == name })
    }

    func call(_ name: String, _ arguments: JSONObject) async throws -> JSONValue {
        try await function(name).invoke(arguments: arguments, context: Self.context)
    }

    func failure(_ name: String, _ arguments: JSONObject) async throws -> ResolveKitFunctionError {
        do {
            let value = try await call(name, arguments)
            Issue.record("expected an error, got \(value)")
            return ResolveKitFunctionError(code: .executionFailed, message: "")
        } catch let error as ResolveKitFunctionError {
            return error
        }
    }

    @Test func theRegistryListsEveryAnnotatedFunctionSortedByName() {
        #expect(
            ResolveKitAutoRegistry.functions.map { $0.resolveKitName } == [
                "book_rooms", "convert-length", "create_event", "echo_scalars", "find_place", "noop", "set_lights",
                "sum_collections",
            ])
    }

    @Test func annotationFlagsAndDescriptionsReachTheConformance() throws {
        #expect(SetLights.resolveKitTimeoutSeconds == 60)
        #expect(SetLights.resolveKitRequiresApproval)
        #expect(SetLights.resolveKitDescription == "Turn the lights in a room on or off.\n\nRooms are matched by name.")
        #expect(EchoScalars.resolveKitRequiresApproval == false)
        #expect(EchoScalars.resolveKitTimeoutSeconds == nil)
        #expect(SumCollections.resolveKitDescription == "Adds up every number it is given.")
        #expect(CreateEvent.resolveKitTimeoutSeconds == 300)
    }

    static let setLightsCases: [(JSONObject, String)] = [
        (["room": "kitchen", "on": true, "level": 40, "mode": "cool"], "kitchen: on at 40 (cool)"),
        (["room": "hall", "on": "yes", "level": "3"], "hall: on at 3 (warm)"),
        (["room": "attic", "on": 0, "level": .null], "attic: off at default (warm)"),
        (["room": 7, "on": "FALSE", "mode": "warm"], "7: off at default (warm)"),
    ]

    @Test("good and coerced arguments reach perform", arguments: setLightsCases)
    func goodAndCoercedArguments(arguments: JSONObject, expected: String) async throws {
        #expect(try await call("set_lights", arguments) == .string(expected))
    }

    static let badCases: [(JSONObject, String)] = [
        ([:], "Invalid arguments: missing required argument 'room'; missing required argument 'on'"),
        (
            ["room": "x", "on": "maybe", "level": 2.5, "mode": "blue"],
            "Invalid arguments: argument 'on': expected boolean, got string \"maybe\"; "
                + "argument 'level': expected integer, got number 2.5 (it has a fractional part); "
                + "argument 'mode': expected one of the allowed values of Mode, got string \"blue\""
        ),
        (["on": true, "room": .null], "Invalid arguments: missing required argument 'room'"),
    ]

    @Test("missing and invalid arguments are all reported by name", arguments: badCases)
    func missingAndInvalidArguments(arguments: JSONObject, message: String) async throws {
        let error = try await failure("set_lights", arguments)
        #expect(error.code == .invalidArguments)
        #expect(error.message == message)
    }

    @Test func everyScalarTypeIsCoercedAndEncodedBack() async throws {
        let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let result = try await call(
            "echo_scalars",
            [
                "text": "hi", "flag": "true", "int": "-12", "small": 127, "unsigned": 65535,
                "wide": 9_007_199_254_740_992,
                "natural": "42", "double": 2.5, "float": "0.5", "decimal": "19.99", "date": "2026-11-22T10:00:00Z",
                "url": "https://example.com/a?b=1", "id": .string(id),
            ])
        #expect(result["text"] == "hi")
        #expect(result["flag"] == true)
        #expect(result["int"] == -12)
        #expect(result["small"] == 127)
        #expect(result["unsigned"] == 65535)
        #expect(result["wide"] == 9_007_199_254_740_992)
        #expect(result["natural"] == 42)
        #expect(result["double"] == 2.5)
        #expect(result["float"] == 0.5)
        #expect(result["decimal"] == 19.99)
        #expect(result["date"]?.stringValue?.hasPrefix("2026-11-22T10:00:00") == true)
        #expect(result["url"] == "https://example.com/a?b=1")
        #expect(result["id"] == .string(id))
    }

    @Test func integerWidthsAreEnforced() async throws {
        let error = try await failure(
            "echo_scalars",
            [
                "text": "", "flag": false, "int": 0, "small": 128, "unsigned": -1, "wide": 0, "natural": 0, "double": 0,
                "float": 0, "decimal": 0, "date": "yesterday", "url": "not a url", "id": "x",
            ])
        #expect(
            error.message
                == "Invalid arguments: argument 'small': expected integer, got integer 128 (it is outside Int8's range "
                + "-128...127); argument 'unsigned': expected integer, got integer -1 (it is outside UInt16's range "
                + "0...65535); argument 'date': expected date-time string, got string \"yesterday\"; argument 'url': "
                + "expected absolute URL string, got string \"not a url\"; argument 'id': expected UUID string, got "
                + "string \"x\"")
    }

    @Test func collectionsUseDefaultsAndAJSONValueResultIsReturnedAsIs() async throws {
        let result = try await call("sum_collections", ["matrix": [[1, 2], [3]], "extra": ["a": [10]]])
        #expect(result == ["total": 16, "labels": [], "weight": 1.5])
        let withSet = try await call("sum_collections", ["matrix": [], "labels": ["b", "a"], "weights": ["x": 2]])
        #expect(withSet == ["total": 0, "labels": ["a", "b"], "weight": 2])
        let duplicate = try await failure("sum_collections", ["matrix": [[1]], "labels": ["a", "a"]])
        #expect(
            duplicate.message
                == "Invalid arguments: argument 'labels': expected array of unique items, got array [\"a\",\"a\"] "
                + "(it has duplicates)")
    }

    @Test func aVoidFunctionWithNestedStructsReturnsNullAndReceivesTheContext() async throws {
        let event: JSONObject = [
            "title": "Standup", "place": ["name": "Room 1", "floor": 2], "priority": 3, "attendees": ["ann"],
        ]
        #expect(try await call("create_event", ["event": .object(event), "notify": [1, "2"]]) == .null)
        #expect(
            try await call("create_event", ["event": ["title": "Retro", "place": ["name": "Hall"], "priority": 1]])
                == .null)
        #expect(EventLog.titles.suffix(2) == ["Standup@Room 1#[1, 2]/session-1", "Retro@Hall#[3]/session-1"])
        let error = try await failure("create_event", ["event": ["title": "X", "priority": 1]])
        #expect(
            error.message
                == "Invalid arguments: argument 'event': expected Event, got object {\"priority\":1,\"title\":\"X\"} "
                + "(missing 'place')")
    }

    @Test func positionalLabelsKeywordsAndReservedLocalNamesAreHandled() async throws {
        #expect(try await call("convert-length", ["value": 10, "unit": "metres"]) == 10)
        #expect(try await call("convert-length", ["value": 1, "reader": "x", "unit": "metres"]) == -1)
        #expect(try await call("convert-length", ["value": 1, "default": true]) == 0)
        let error = try await failure("convert-length", ["unit": "yards"])
        #expect(
            error.message
                == "Invalid arguments: missing required argument 'value'; argument 'unit': expected one of the allowed "
                + "values of Unit, got string \"yards\"")
    }

    @Test func theGeneratedSchemaIsReadableByTheCoreSchemaModel() throws {
        for function in ResolveKitAutoRegistry.functions {
            let schema = try JSONSchema(jsonObject: function.resolveKitParametersSchema)
            #expect(schema.type == .object)
        }
        let schema = try JSONSchema(jsonObject: SetLights.resolveKitParametersSchema)
        #expect(schema.required == ["room", "on"])
        #expect(schema.properties["level"]?.minimum == 0)
        #expect(schema.properties["level"]?.maximum == 100)
        #expect(schema.properties["mode"]?.enumValues == ["warm", "cool"])
        #expect(schema.properties["mode"]?.defaultValue == "warm")
        let event = try JSONSchema(jsonObject: CreateEvent.resolveKitParametersSchema).properties["event"]
        #expect(event?.required == ["title", "place", "priority"])
        #expect(event?.properties["place"]?.properties["floor"]?.minimum == -5)
        #expect(event?.properties["title"]?.minLength == 1)
        #expect(event?.properties["kind"] == nil)
    }

    @Test func aliasesCodingKeysSetsOfEnumsAndPerformInAnExtensionWork() async throws {
        let result = try await call(
            "book_rooms",
            [
                "booking": ["guest_name": "Ann", "nights": 2, "note": "late"], "places": ["a": ["name": "A"]],
                "priorities": [1, 3], "modes": ["cool"], "limit": "7",
            ])
        #expect(
            result == ["Ann": 2, "places": 1, "priorities": 2, "modes": 1, "budget": 99, "limit": 7, "note": 4])
        let schema = try JSONSchema(jsonObject: BookRooms.resolveKitParametersSchema)
        #expect(schema.properties["booking"]?.required == ["guest_name", "nights"])
        #expect(schema.properties["priorities"]?.uniqueItems == true)
        #expect(schema.properties["limit"]?.maximum == 9_007_199_254_740_992)
        #expect(schema.properties["budget"]?.defaultValue == 99.5)
        let error = try await failure("book_rooms", ["booking": ["guest": "Ann", "nights": 300]])
        #expect(
            error.message
                == "Invalid arguments: argument 'booking': expected Booking, got object {\"guest\":\"Ann\",\"nights\":300} "
                + "(missing 'guest_name')")
    }

    @Test func optionalAndVoidResultsEncodeAsNull() async throws {
        #expect(try await call("find_place", ["key": "home"]) == ["name": "Home", "floor": 1])
        #expect(try await call("find_place", ["key": "nowhere"]) == .null)
        #expect(try await call("noop", ["ignored": true]) == .null)
        #expect(Noop.resolveKitParametersSchema == ["type": "object", "properties": [:], "required": []])
    }
}
