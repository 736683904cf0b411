import ResolveKitCore
import Testing

@testable import ResolveKitTesting

/// The default agent calls any registered function the message names, with arguments from its schema, and answers
/// readably.
struct SchemaDrivenAgentTests {
    static let thermostat = AgentContext.Tool(
        name: "set_thermostat", description: "Set the heating mode and target temperature of a room's thermostat.",
        parametersSchema: [
            "type": "object", "required": ["room", "celsius", "mode"],
            "properties": [
                "room": ["type": "string", "description": "The room, e.g. \"living room\"."],
                "celsius": ["type": "integer", "minimum": 5, "maximum": 30],
                "mode": ["type": "string", "enum": ["heat", "cool", "off"]],
                "boost": ["type": "boolean"],
            ],
        ])
    static let lights = AgentContext.Tool(
        name: "set_lights", description: "Turn the lights in a room on or off.",
        parametersSchema: [
            "type": "object", "required": ["room"],
            "properties": ["room": ["type": "string"], "on": ["type": "boolean"]],
        ])
    static let tools = [thermostat, lights]

    @Test(arguments: [
        ("set the kitchen thermostat to heat", ["set_thermostat"]),
        ("please run set_thermostat", ["set_thermostat"]),
        ("set lights in the hall, then set thermostat", ["set_lights", "set_thermostat"]),
        ("what is the heating mode and target temperature?", ["set_thermostat"]),
        ("hello there", []),
    ])
    func messagesNameFunctionsByNameOrDescription(text: String, expected: [String]) {
        #expect(FunctionMatcher(tools: Self.tools).match(text).map(\.name) == expected)
    }

    @Test func argumentsComeFromTheMessageWithinTheSchemasBounds() throws {
        let arguments = try SchemaArguments.build(
            schema: Self.thermostat.parametersSchema, text: "set_thermostat room: kitchen celsius=45 and make it cool"
        ).get()
        #expect(arguments == ["room": "kitchen", "celsius": 30, "mode": "cool"])
    }

    @Test func requiredArgumentsNotSaidAreFilledWithValuesTheSchemaAccepts() throws {
        let arguments = try SchemaArguments.build(schema: Self.thermostat.parametersSchema, text: "set the thermostat")
            .get()
        #expect(arguments == ["room": "living room", "celsius": 5, "mode": "heat"])
    }

    @Test func aRequiredArgumentWithNoValueAnywhereIsAskedFor() async {
        let context = AgentContext(
            userText: "set lights", history: [], llmContext: .null, tools: Self.tools, rounds: [])
        let round = await AgentScript.default.nextRound(context)
        guard case .text(let question, _) = round else {
            Issue.record("expected a question, got \(round)")
            return
        }
        #expect(question == #"To run set_lights I need room; say it like "room: …"."#)
    }

    @Test func severalFunctionsNamedAreOneBatch() async {
        let context = AgentContext(
            userText: "set_lights room: hall on: true, then set_thermostat room: hall", history: [], llmContext: .null,
            tools: Self.tools, rounds: [])
        guard case .toolCalls(let calls) = await AgentScript.default.nextRound(context) else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.map(\.functionName) == ["set_lights", "set_thermostat"])
        #expect(calls[0].arguments == ["room": "hall", "on": true])
    }

    @Test func structuredResultsReadAsLinesWithHumanUnits() {
        let text = ReadableResult.lines(
            #"{"fileSystems":[{"mountPoint":"/","availableBytes":83679461376,"usedPercent":16.6}],"status":"ok"}"#)
        #expect(
            text == """
                file systems (1):
                  - available bytes 83.7 GB, mount point /, used percent 17 %
                status: ok
                """)
        #expect(ReadableResult.lines(#""10:42""#) == nil)
    }
}
