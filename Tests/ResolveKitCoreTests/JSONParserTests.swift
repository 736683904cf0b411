import ResolveKitCore
import Testing

struct JSONParserTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-0.5"#, #"1e-7"#, #"123456789"#, #""""#, #""a\"b\\c/d""#,
        #"[]"#, #"{}"#, #"[1,"two",{"three":[3,null]}]"#, #"{"a":{"b":{"c":[true,false]}}}"#,
        #""tab\tnewline\ncarriage\r""#, #""é日本🙂""#,
    ])
    func parsesAndReserializesValidDocuments(text: String) throws {
        let value = try JSONValue(parsing: text)
        let reparsed = try JSONValue(parsing: value.serialized())
        #expect(reparsed == value)
    }

    @Test func keepsTrueAndOneDistinct() throws {
        let value = try JSONValue(parsing: "[true, 1, false, 0]")
        #expect(value == [.bool(true), .number(1), .bool(false), .number(0)])
        #expect(value[0]?.intValue == nil)
        #expect(value[1]?.boolValue == nil)
    }

    @Test func decodesUnicodeEscapesAndSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\u00e9\u65E5""#) == "é日")
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == "😀")
        #expect(try JSONValue(parsing: #""a\u0000b""#) == .string("a\u{0}b"))
    }

    @Test(arguments: [
        (#""\ud83d""#, 1), (#""\ude00""#, 1), (#""\ud83d\u0041""#, 7), (#""\u12G4""#, 1),
    ])
    func rejectsBrokenUnicodeEscapesAtTheirOffset(text: String, offset: Int) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.code == .invalidUnicodeEscape)
            #expect(error.offset == offset)
        }
    }

    @Test func acceptsIntegersUpToTwoToTheFiftyThird() throws {
        #expect(try JSONValue(parsing: "9007199254740992") == .number(9_007_199_254_740_992))
        #expect(try JSONValue(parsing: "-9007199254740992") == .number(-9_007_199_254_740_992))
    }

    @Test(arguments: ["9007199254740993", "-9007199254740993", "123456789012345678901234567890"])
    func rejectsIntegersBeyondTwoToTheFiftyThirdInsteadOfRounding(text: String) {
        #expect { try JSONValue(parsing: "[\(text)]") } throws: { error in
            let error = error as! JSONParseError
            return error.code == .integerOutOfRange && error.offset == 1
        }
    }

    @Test func acceptsLargeFloatingPointNumbersButNotInfinity() throws {
        #expect(try JSONValue(parsing: "1.5e300") == .number(1.5e300))
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "1e400") }
    }

    @Test(arguments: [
        ("", 0, JSONParseError.Code.unexpectedEnd), ("[1,]", 3, .unexpectedByte), ("{\"a\" 1}", 5, .unexpectedByte),
        ("{a:1}", 1, .unexpectedByte), ("01", 0, .invalidNumber), ("1.", 0, .invalidNumber), ("-", 0, .invalidNumber),
        ("tru", 3, .unexpectedEnd), ("nul!", 0, .unexpectedByte), ("[1] x", 4, .trailingData),
        ("\"a\u{1}\"", 2, .controlCharacterInString), ("\"\\x\"", 1, .invalidEscape), ("\"abc", 0, .unexpectedEnd),
        ("[1 2]", 3, .unexpectedByte), ("{\"a\":1,}", 7, .unexpectedByte),
    ])
    func reportsMalformedInputWithItsByteOffset(text: String, offset: Int, code: JSONParseError.Code) {
        #expect { try JSONValue(parsing: text) } throws: { error in
            let error = error as! JSONParseError
            return error.code == code && error.offset == offset
        }
    }

    @Test(arguments: ["call_id", "", "café", "日本語のテキスト", "a 🎉 b", String(repeating: "x", count: 300)])
    func readsASCIIAndOtherUTF8StringsAsWritten(text: String) throws {
        #expect(try JSONValue(parsing: Array("\"\(text)\"".utf8)) == .string(text))
        #expect(try JSONValue(parsing: Array("{\"\(text)\":1}".utf8))[text] == .number(1))
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect { try JSONValue(parsing: bytes) } throws: { ($0 as! JSONParseError).code == .invalidUTF8 }
    }

    @Test func limitsNestingDepthInsteadOfExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect { try JSONValue(parsing: deep) } throws: { ($0 as! JSONParseError).code == .depthLimitExceeded }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue(parsing: allowed) }
        #expect(throws: JSONParseError.self) { try JSONParser(maxDepth: 3).parse("[[[[1]]]]") }
    }

    @Test func everyTruncationOfAValidDocumentFailsCleanly() throws {
        let document = #"{"event_id": "1795312329875-0", "payload": {"arguments": {"on": true, "room": "kitch\u00e9n"}, "n": [1.5e3, -2, null, false], "s": "\ud83d\ude00"}}"#
        let bytes = Array(document.utf8)
        for length in 0..<bytes.count {
            #expect(throws: JSONParseError.self, "prefix of \(length) bytes") {
                try JSONValue(parsing: bytes[0..<length])
            }
        }
        #expect(throws: Never.self) { try JSONValue(parsing: bytes) }
    }

    @Test func survivesEverySingleByteCorruption() {
        let bytes = Array(#"{"a":[1,"x\n",true,null,{"b":-2.5e-3}]}"#.utf8)
        for position in bytes.indices {
            for replacement: UInt8 in [0x00, 0x22, 0x5C, 0x7B, 0x5D, 0xFF, 0x30] {
                var corrupted = bytes
                corrupted[position] = replacement
                _ = try? JSONValue(parsing: corrupted)
            }
        }
    }
}
