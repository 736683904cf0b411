import Foundation
import ResolveKitCore
import Testing

struct TypeResolverTests {
    @Test(arguments: [
        (JSONValue.string("x"), "x" as String?), (.number(3), "3"), (.number(2.5), "2.5"), (.bool(true), "true"),
        (.null, nil), (.array([]), nil), (.object([:]), nil),
    ])
    func coercesStrings(value: JSONValue, expected: String?) {
        #expect(TypeResolver.coerceString(value) == expected)
    }

    @Test(arguments: [
        (JSONValue.bool(true), true as Bool?), (.bool(false), false), (.number(1), true), (.number(0), false),
        (.string("TRUE"), true), (.string("no"), false), (.string("Yes"), true), (.string("0"), false),
        (.number(2), nil), (.string("maybe"), nil), (.null, nil), (.array([]), nil),
    ])
    func coercesBooleans(value: JSONValue, expected: Bool?) {
        #expect(TypeResolver.coerceBool(value) == expected)
    }

    @Test(arguments: [
        (JSONValue.number(3), 3 as Int?), (.number(3.0), 3), (.number(-7), -7), (.string("42"), 42), (.string(" 5 "), 5),
        (.string("3.0"), 3), (.number(3.5), nil), (.string("3.5"), nil), (.bool(true), nil), (.string("x"), nil),
        (.number(1e300), nil), (.null, nil),
    ])
    func coercesIntegers(value: JSONValue, expected: Int?) {
        #expect(TypeResolver.coerceInt(value) == expected)
    }

    @Test(arguments: [
        (JSONValue.number(2.5), 2.5 as Double?), (.string("2.5"), 2.5), (.string("-1e3"), -1000), (.bool(false), nil),
        (.string("abc"), nil), (.string("inf"), nil),
    ])
    func coercesDoubles(value: JSONValue, expected: Double?) {
        #expect(TypeResolver.coerceDouble(value) == expected)
    }

    @Test func refusesValuesOutsideAnIntegerWidthWithTheRange() {
        #expect(throws: TypeCoercionError.self) { try TypeResolver.integer(300, as: UInt8.self) }
        #expect(throws: TypeCoercionError.self) { try TypeResolver.integer(-1, as: UInt.self) }
        do {
            _ = try TypeResolver.integer(3.5, as: Int.self)
        } catch {
            #expect(error.description == "expected integer, got number 3.5 (it has a fractional part)")
        }
    }

    @Test func coercesCompositeArguments() throws {
        #expect(try [Int].resolveKitCoerce(["1", 2.0]) == [1, 2])
        #expect(try Set<String>.resolveKitCoerce(["a", "b"]) == ["a", "b"])
        #expect(throws: TypeCoercionError.self) { try Set<String>.resolveKitCoerce(["a", "a"]) }
        #expect(try [String: Double].resolveKitCoerce(["x": "1.5"]) == ["x": 1.5])
        #expect(try Int?.resolveKitCoerce(nil) == nil)
        #expect(try UUID.resolveKitCoerce("E621E1F8-C36C-495A-93FC-0C247A3E6E5F").uuidString.hasPrefix("E621"))
        #expect(try Date.resolveKitCoerce("1970-01-01T00:00:10Z") == Date(timeIntervalSince1970: 10))
        #expect(throws: TypeCoercionError.self) { try URL.resolveKitCoerce("not a url") }
        #expect(try Decimal.resolveKitCoerce("12.30") == Decimal(string: "12.30"))
    }

    @Test func readerReportsEveryMissingAndInvalidArgumentByName() {
        var reader = ResolveKitArgumentReader(["level": "high", "on": "yes", "note": nil])
        let room = reader.required("room", as: String.self)
        let on = reader.required("on", as: Bool.self)
        let level = reader.optional("level", as: Int.self)
        let note = reader.optional("note", as: String.self)
        #expect(room == nil)
        #expect(on == true)
        #expect(level == nil)
        #expect(note == nil)
        #expect(!reader.isValid)
        #expect(reader.failure().description == """
            Invalid arguments: missing required argument 'room'; argument 'level': expected integer, got string "high"
            """)
        #expect(reader.failure().code == .invalidArguments)
    }

    enum Mode: String, ResolveKitArgument, CaseIterable {
        case warm, cold
        static func resolveKitCoerce(_ value: JSONValue) throws -> Mode { try resolveKitCoerceRawValue(value) }
    }

    struct Point: Decodable, ResolveKitArgument, Equatable {
        var x: Int
        var y: Int
        static func resolveKitCoerce(_ value: JSONValue) throws -> Point { try resolveKitDecode(value) }
    }

    @Test func coercesRawValueEnumsAndDecodableStructs() throws {
        #expect(try Mode.resolveKitCoerce("warm") == .warm)
        #expect(throws: TypeCoercionError.self) { try Mode.resolveKitCoerce("hot") }
        #expect(try Point.resolveKitCoerce(["x": 1, "y": 2]) == Point(x: 1, y: 2))
        #expect { try Point.resolveKitCoerce(["x": 1]) } throws: { "\($0)".contains("missing 'y'") }
    }

    /// Found by the SchemaCoercion fuzz target's determinism check: a dictionary argument with several bad
    /// members named whichever one its iteration order reached first. Now the first in sorted order is named.
    @Test func aDictionaryArgumentNamesTheSameBadMemberWhateverTheIterationOrder() {
        let keys = (0..<16).map { "m\($0)" }
        var forward: JSONObject = [:]
        for key in keys { forward[key] = "x" }
        var backward: JSONObject = [:]
        for key in keys.reversed() { backward[key] = "x" }
        for members in [forward, backward] {
            #expect { try [String: Int].resolveKitCoerce(.object(members)) } throws: { "\($0)".contains("at key 'm0'") }
        }
    }
}
