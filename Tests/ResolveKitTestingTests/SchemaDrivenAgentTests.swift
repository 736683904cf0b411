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

    /// Of two functions named, one has its arguments and one lacks a required one: the first runs, and the answer
    /// has a line for it and the question for the other (no line for a call that was never made).
    @Test func aCallThatCannotBeMadeIsAskedForBesideTheAnswerOfTheOneThatRan() async {
        var context = AgentContext(
            userText: "set the thermostat and set lights", history: [], llmContext: .null, tools: Self.tools,
            rounds: [])
        guard case .toolCalls(let calls) = await AgentScript.default.nextRound(context) else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.map(\.functionName) == ["set_thermostat"])
        context.rounds = [[.init(callID: "c1", functionName: "set_thermostat", arguments: [:], result: "ok")]]
        guard case .text(let answer, _) = await AgentScript.default.nextRound(context) else {
            Issue.record("expected the answer")
            return
        }
        #expect(answer == "Done. The {name} returned \"{result}\".\n" + #"To run set_lights I need room; say it like "room: …"."#)
    }

    /// A question two of the demo's keyword rules answer ("time", "disk") is one batch of both calls, as a model
    /// would make it, not the first rule's call alone.
    @Test func aQuestionForTwoDemoFunctionsCallsBoth() async {
        let tools = ["get_local_time", "get_disk_usage"].map {
            AgentContext.Tool(name: $0, description: "", parametersSchema: ["type": "object", "properties": [:]])
        }
        let context = AgentContext(
            userText: "what time is it and how much disk space is free", history: [], llmContext: .null, tools: tools,
            rounds: [])
        guard case .toolCalls(let calls) = await AgentScript.default.nextRound(context) else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.map(\.functionName) == ["get_local_time", "get_disk_usage"])
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

    /// A function's exact name wins over the script's keyword rules, and is not taken for one of its arguments.
    @Test func aFunctionNamedAsItIsIsCalledWhateverKeywordsTheMessageHolds() async {
        let directory = AgentContext.Tool(
            name: "list_directory", description: "List a folder.",
            parametersSchema: ["type": "object", "required": ["path"], "properties": ["path": ["type": "string"]]])
        let log = AgentContext.Tool(
            name: "read_log_tail", description: "Read a log.", parametersSchema: ["type": "object"])
        let context = AgentContext(
            userText: "list_directory /var/log", history: [], llmContext: .null, tools: [log, directory], rounds: [])
        guard case .toolCalls(let calls) = await AgentScript.default.nextRound(context) else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.map(\.functionName) == ["list_directory"])
        #expect(calls.first?.arguments == ["path": "/var/log"])
    }

    @Test(arguments: [
        ("log", "show me the logs", true),
        ("log", "tail /var/log/syslog", true),
        ("log", "what is in the catalog?", false),
        ("time", "what time is it?", true),
        ("time", "what is the uptime?", false),
        ("process", "which processes are busy?", true),
        ("files in", "list the files in this folder", true),
        ("date", "is there an update?", false),
    ])
    func keywordsMatchWholeWordsAndTheirPlurals(keyword: String, text: String, matches: Bool) {
        #expect(AgentScript.Match.keywords([keyword]).accepts(text) == matches)
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

    static let temperature: JSONValue = [
        "type": "object", "required": ["celsius"],
        "properties": ["celsius": ["type": "number", "minimum": -273.15, "description": "The temperature."]],
    ]
    static let order: JSONValue = [
        "type": "object", "required": ["order_id"],
        "properties": ["order_id": ["type": "string", "description": "The order, e.g. \"A-1001\"."]],
    ]
    static let logTail: JSONValue = [
        "type": "object", "required": ["path"],
        "properties": [
            "path": ["type": "string", "description": "Absolute path of the file."],
            "lines": ["type": "integer", "minimum": 1, "maximum": 1000],
        ],
    ]

    @Test(arguments: [
        (temperature, "what is 30 degrees celsius in fahrenheit?", ["celsius": 30] as JSONValue),
        (temperature, "convert -40 to fahrenheit", ["celsius": -40]),
        (temperature, "convert a temperature to fahrenheit", ["celsius": -273.15]),
        (order, "look up order A-1234", ["order_id": "A-1234"]),
        (order, #"look up order "B 77", please"#, ["order_id": "B 77"]),
        (order, "look up my order", ["order_id": "A-1001"]),
        (logTail, "show the last 50 lines of /var/log/syslog", ["lines": 50, "path": "/var/log/syslog"]),
        (logTail, "show /var/log/syslog", ["path": "/var/log/syslog"]),
        (
            thermostat.parametersSchema, "set the thermostat in room 4B to 21",
            ["celsius": 21, "mode": "heat", "room": "4B"]
        ),
        (
            thermostat.parametersSchema, "set the thermostat to 45",
            ["celsius": 5, "mode": "heat", "room": "living room"]
        ),
    ] as [(JSONValue, String, JSONValue)])
    func valuesComeFromTheQuestionWhenTheyFitAndTheDescriptionsExampleOnlyWhenItHasNone(
        schema: JSONValue, text: String, expected: JSONValue
    ) throws {
        #expect(try SchemaArguments.build(schema: schema, text: text).get() == expected)
    }

    @Test func theAnswerSaysWhenACallFailed() {
        let failed = #"{"error": "User denied action"}"#
        let done = ReferenceBackend.render(
            AgentScript.doneTemplate, results: [("read_log_tail", failed)], userText: "show me the log")
        #expect(done == "That did not work. The read_log_tail call failed: User denied action.")
        let partly = ReferenceBackend.render(
            "Done.\nThe {name1} returned \"{result1}\".\nThe {name2} returned \"{result2}\".",
            results: [("get_local_time", #""10:42""#), ("read_log_tail", failed)], userText: "")
        #expect(
            partly == """
                Only partly done.
                The get_local_time returned ""10:42"".
                The read_log_tail call failed: User denied action.
                """)
        let placed = ReferenceBackend.render("Result: {result}", results: [("f", failed)], userText: "")
        #expect(placed == "Result: failed: User denied action")
    }
}
