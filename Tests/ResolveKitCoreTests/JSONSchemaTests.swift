import ResolveKitCore
import Testing

struct JSONSchemaTests {
    let lights = JSONSchema.object(
        [
            "room": JSONSchema(type: .string, description: "Room name", minLength: 1, maxLength: 20, pattern: "^[a-z ]+$"),
            "on": JSONSchema(type: .boolean),
            "level": JSONSchema(type: .integer, minimum: 0, maximum: 100),
            "tags": JSONSchema(type: .array, items: JSONSchema(type: .string), maxItems: 3, uniqueItems: true),
            "mode": JSONSchema(type: .string, enumValues: ["warm", "cold"], nullable: true),
            "extra": JSONSchema(type: .object, additionalProperties: .schema(JSONSchema(type: .number))),
            "when": JSONSchema(type: .string, format: "date-time"),
        ],
        required: ["room", "on"]
    )

    @Test func acceptsValidArguments() {
        let arguments: JSONValue = [
            "room": "kitchen", "on": true, "level": 40, "tags": ["a", "b"], "mode": nil, "extra": ["x": 1.5],
            "when": "2026-11-22T10:00:00Z",
        ]
        #expect(lights.validate(arguments) == [])
    }

    @Test func reportsEveryViolationWithItsPath() {
        let arguments: JSONValue = [
            "on": "yes", "level": 101, "tags": ["a", "a", 3, "d"], "mode": "hot", "extra": ["x": "many"],
            "when": "yesterday",
        ]
        let violations = lights.validate(arguments).map(\.description)
        #expect(violations == [
            "$.room: is required",
            "$.extra.x: expected number, got string \"many\"",
            "$.level: must be at most 100",
            "$.mode: must be one of \"warm\", \"cold\"",
            "$.on: expected boolean, got string \"yes\"",
            "$.tags: must have at most 3 items",
            "$.tags: items must be unique",
            "$.tags[2]: expected string, got integer 3",
            "$.when: must be an ISO-8601 date-time",
        ])
    }

    @Test func checksStringLengthAndPattern() {
        #expect(lights.validate(["room": "", "on": true]).map(\.description) == [
            "$.room: must have at least 1 character", "$.room: must match the pattern ^[a-z ]+$",
        ])
        #expect(lights.validate(["room": "Kitchen!", "on": false]).map(\.path) == ["$.room"])
    }

    @Test func refusesUndeclaredMembersWhenAdditionalPropertiesIsFalse() {
        var strict = JSONSchema.object(["a": JSONSchema(type: .string)])
        strict.additionalProperties = .allowed(false)
        #expect(strict.validate(["a": "x", "b c": 1]).map(\.description) == [#"$["b c"]: is not allowed"#])
    }

    @Test func integerTypeAcceptsWholeNumbersOnly() {
        let schema = JSONSchema(type: .integer)
        #expect(schema.validate(3.0) == [])
        #expect(schema.validate(3.5).map(\.message) == ["expected integer, got number 3.5"])
        #expect(schema.validate(true).map(\.message) == ["expected integer, got boolean true"])
    }

    @Test func roundTripsThroughJSON() throws {
        let json = lights.jsonObject
        #expect(json["type"] == "object")
        #expect(json["required"] == ["room", "on"])
        #expect(try JSONSchema(jsonObject: json) == lights)
    }

    @Test func readsTypeArraysWithNullAsNullable() throws {
        let schema = try JSONSchema(jsonObject: ["type": ["string", "null"]])
        #expect(schema.type == .string)
        #expect(schema.nullable)
        #expect(schema.validate(nil) == [])
    }

    static let malformedSchemas: [(JSONObject, String)] = [
        (["type": "text"], "$: 'type' must be a JSON Schema type name"),
        (["properties": ["a": 1]], "$: 'properties' must be an object of schemas"),
        (["properties": ["a": ["minLength": -1]]], "$.properties.a: 'minLength' must be a non-negative integer"),
        (["required": [1]], "$: 'required' must be an array of strings"),
    ]

    @Test(arguments: malformedSchemas)
    func rejectsMalformedSchemasWithThePath(json: JSONObject, message: String) {
        #expect { try JSONSchema(jsonObject: json) } throws: { "\($0)" == message }
    }

    @Test func coercesTolerantlyBeforeValidation() {
        let coerced = lights.coerce(["room": 7, "on": "yes", "level": "40", "tags": ["a"], "extra": ["x": "2.5"]])
        #expect(coerced == ["room": "7", "on": true, "level": 40, "tags": ["a"], "extra": ["x": 2.5]])
        #expect(lights.coerce(["level": 3.5])["level"] == 3.5)
    }

    /// Found by the SchemaCoercion fuzz target: an enum value that is an object was written into the violation
    /// in dictionary iteration order, which differs between equal dictionaries, so equal inputs gave different
    /// messages. The crashing input was `{"mode": {"enum": [{"k": 1, "j": 2}, [1], "x"]}}` against `{"q": 1, …}`.
    @Test func anEnumViolationNamesObjectValuesWithSortedKeys() {
        let members = (0..<16).map { "k\($0)" }
        var forward: JSONObject = [:]
        for key in members { forward[key] = 1 }
        var backward: JSONObject = [:]
        for key in members.reversed() { backward[key] = 1 }
        let expected = JSONValue.object(forward).serialized(options: .sortedKeys)
        for value in [forward, backward] {
            let schema = JSONSchema(enumValues: [.object(value), "x"])
            #expect(schema.validate("y") == [JSONSchema.Violation(path: "$", message: "must be one of \(expected), \"x\"")])
        }
    }
}
