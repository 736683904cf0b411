import Foundation
import ResolveKitCore
import Testing

struct JSONSerializationTests {
    let sample: JSONValue = ["b": [1, 2.5, "x"], "a": ["nested": true, "none": nil], "c": "é\n\"q\""]

    @Test func writesCompactTextWithSortedKeys() {
        #expect(
            sample.serialized(options: .sortedKeys)
                == #"{"a":{"nested":true,"none":null},"b":[1,2.5,"x"],"c":"é\n\"q\""}"#)
    }

    @Test func writesPrettyTextWithTwoSpaceIndentation() {
        let expected = """
            {
              "a": {
                "nested": true,
                "none": null
              },
              "b": [
                1,
                2.5,
                "x"
              ],
              "c": "é\\n\\"q\\""
            }
            """
        #expect(sample.serialized(options: [.sortedKeys, .prettyPrinted]) == expected)
        #expect(JSONValue.object([:]).serialized(options: .prettyPrinted) == "{}")
    }

    @Test func escapesNonASCIIAsPythonDoesWhenAsked() {
        let text = JSONValue.string("é🙂\u{1}").serialized(options: .escapeNonASCII)
        #expect(text == #""\u00e9\ud83d\ude42\u0001""#)
    }

    /// Every ASCII character alone and amid other text, and text beyond ASCII, as JSON writes it: quotes,
    /// backslashes and control characters escaped, everything else as it is.
    @Test func escapesExactlyWhatJSONRequires() throws {
        for value in UInt8(0)..<0x80 {
            let character = String(UnicodeScalar(value))
            let expected: String
            switch value {
            case UInt8(ascii: "\""): expected = #"\""#
            case UInt8(ascii: "\\"): expected = #"\\"#
            case 0x0A: expected = #"\n"#
            case 0x0D: expected = #"\r"#
            case 0x09: expected = #"\t"#
            case 0x08: expected = #"\b"#
            case 0x0C: expected = #"\f"#
            case ..<0x20: expected = "\\u00" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
            default: expected = character
            }
            #expect(JSONValue.string(character).serialized() == "\"\(expected)\"", "byte \(value)")
            let amid = "ab" + character + "é🙂" + character + "cd"
            #expect(JSONValue.string(amid).serialized() == "\"ab\(expected)é🙂\(expected)cd\"", "byte \(value)")
            #expect(try JSONValue(parsing: JSONValue.string(amid).serialized()) == .string(amid))
        }
        let long = String(repeating: "plain text without escapes, ", count: 40) + "\"end\""
        #expect(try JSONValue(parsing: JSONValue.string(long).serialized()) == .string(long))
        #expect(JSONValue.string("").serialized() == #""""#)
        #expect(JSONValue.string("a\"é").serialized(options: .escapeNonASCII) == #""a\"\u00e9""#)
    }

    @Test(arguments: [
        (JSONValue.number(3), "3"), (.number(-0.5), "-0.5"), (.number(1e21), "1e+21"), (.number(0.1), "0.1"),
        (.number(9_007_199_254_740_992), "9007199254740992"),
        (.number(-9_007_199_254_740_992), "-9007199254740992"), (.number(0), "0"), (.number(-7), "-7"),
        (.number(.nan), "null"), (.number(.infinity), "null"),
    ])
    func writesNumbersExactlyAndShortest(value: JSONValue, text: String) {
        #expect(value.serialized() == text)
    }

    @Test func serializationIsDeterministicWithSortedKeys() {
        var members: JSONObject = [:]
        for index in 0..<50 { members["key\(index)"] = .number(Double(index)) }
        let first = JSONValue.object(members).serialized(options: .sortedKeys)
        let rebuilt = JSONValue.object(Dictionary(uniqueKeysWithValues: members.reversed())).serialized(
            options: .sortedKeys)
        #expect(first == rebuilt)
    }

    @Test func codableDecodingNeverConfusesBooleansAndNumbers() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data("[true,1,0,false,1.5]".utf8))
        #expect(decoded == [.bool(true), .number(1), .number(0), .bool(false), .number(1.5)])
        let encoded = try JSONEncoder().encode(decoded)
        #expect(String(decoding: encoded, as: UTF8.self) == "[true,1,0,false,1.5]")
    }

    @Test func codableDecodingRefusesIntegersBeyondTwoToTheFiftyThird() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(JSONValue.self, from: Data("9007199254740993".utf8))
        }
    }

    @Test func convertsEncodableValuesAndBack() throws {
        struct Reading: Codable, Equatable {
            var room: String
            var level: Int
            var at: Date
        }
        let reading = Reading(room: "kitchen", level: 3, at: Date(timeIntervalSince1970: 1_795_312_328.5))
        let json = try JSONValue(encoding: reading)
        #expect(json["room"] == "kitchen")
        #expect(json["level"] == 3)
        #expect(json["at"] == "2026-11-22T01:52:08.500Z")
        #expect(try json.decode(Reading.self) == reading)
        #expect(try JSONValue(encoding: "plain") == "plain")
    }

    @Test func subscriptsReadAndWriteMembers() {
        var value: JSONValue = ["a": [10, 20]]
        #expect(value["a"]?[1] == 20)
        #expect(value["a"]?[5] == nil)
        #expect(value["missing"] == nil)
        value["b"] = "new"
        #expect(value["b"] == "new")
    }
}
