import Testing

@testable import ResolveKitTesting

struct WireJSONTests {
    @Test(arguments: [
        ("plain id 1795312329875-0", #""plain id 1795312329875-0""#, #""plain id 1795312329875-0""#),
        ("say \"hi\"\\", #""say \"hi\"\\""#, #""say \"hi\"\\""#),
        ("a\nb\tc\u{01}", #""a\nb\tc\u0001""#, #""a\nb\tc\u0001""#),
        ("café 😀", #""café 😀""#, #""caf\u00e9 \ud83d\ude00""#),
    ])
    func stringsAreWrittenAsFastAPIAndPythonWriteThem(text: String, compact: String, python: String) {
        #expect(WireJSON.string(text).text(.compact) == compact)
        #expect(WireJSON.string(text).text(.python) == python)
    }

    @Test func objectMembersKeepTheirOrderAndEachStylesSeparators() {
        let value = WireJSON.object([("type", .string("é")), ("n", .array([.int(1), .null, .bool(true)]))])
        #expect(value.text(.compact) == #"{"type":"é","n":[1,null,true]}"#)
        #expect(value.text(.python) == #"{"type": "\u00e9", "n": [1, null, true]}"#)
    }
}

struct ReplyTemplateTests {
    @Test func placeholdersAreFilledOneAfterAnother() {
        let results = [(name: "get_time", text: "\"12:00\""), (name: "echo", text: "{text}")]
        let text = ReferenceBackend.render(
            "{name1} said {result1}; {name2} said {result2}. You asked: {text}", results: results, userText: "hi")
        #expect(text == "get_time said \"12:00\"; echo said hi. You asked: hi")
        #expect(ReferenceBackend.render("No placeholders.", results: results, userText: "hi") == "No placeholders.")
    }

    @Test func aStructuredResultIsWrittenAsLines() {
        let text = ReferenceBackend.render(
            "It is \"{result}\".", results: [(name: "f", text: #"{"a":1}"#)], userText: "")
        #expect(text == "It is:\n" + ReadableResult.lines(#"{"a":1}"#)!)
    }
}
