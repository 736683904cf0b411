import Testing

@testable import ResolveKitCodegen

/// One parameter's type in, its exact schema out.
struct SchemaSnippetTests {
    static let standardTypes: [(String, String)] = [
        ("x: String", #"{"type":"string"} required"#),
        ("x: Bool", #"{"type":"boolean"} required"#),
        ("x: Int", #"{"maximum":9007199254740992,"minimum":-9007199254740992,"type":"integer"} required"#),
        ("x: Int8", #"{"maximum":127,"minimum":-128,"type":"integer"} required"#),
        ("x: Int16", #"{"maximum":32767,"minimum":-32768,"type":"integer"} required"#),
        ("x: Int32", #"{"maximum":2147483647,"minimum":-2147483648,"type":"integer"} required"#),
        ("x: Int64", #"{"maximum":9007199254740992,"minimum":-9007199254740992,"type":"integer"} required"#),
        ("x: UInt", #"{"maximum":9007199254740992,"minimum":0,"type":"integer"} required"#),
        ("x: UInt8", #"{"maximum":255,"minimum":0,"type":"integer"} required"#),
        ("x: UInt16", #"{"maximum":65535,"minimum":0,"type":"integer"} required"#),
        ("x: UInt32", #"{"maximum":4294967295,"minimum":0,"type":"integer"} required"#),
        ("x: UInt64", #"{"maximum":9007199254740992,"minimum":0,"type":"integer"} required"#),
        ("x: Double", #"{"type":"number"} required"#),
        ("x: Float", #"{"type":"number"} required"#),
        ("x: Decimal", #"{"type":"number"} required"#),
        ("x: Foundation.Date", #"{"format":"date-time","type":"string"} required"#),
        ("x: URL", #"{"format":"uri","type":"string"} required"#),
        ("x: UUID", #"{"format":"uuid","type":"string"} required"#),
        ("x: Swift.String?", #"{"type":"string"}"#),
        ("x: Optional<Bool>", #"{"type":"boolean"}"#),
    ]

    @Test("standard types map to their schema", arguments: standardTypes)
    func standardType(parameters: String, expected: String) {
        #expect(Snippet.parameterSchema(parameters) == expected)
    }

    static let collections: [(String, String)] = [
        ("x: [String]", #"{"items":{"type":"string"},"type":"array"} required"#),
        ("x: [[Bool]]", #"{"items":{"items":{"type":"boolean"},"type":"array"},"type":"array"} required"#),
        ("x: Array<Double>?", #"{"items":{"type":"number"},"type":"array"}"#),
        ("x: Set<String>", #"{"items":{"type":"string"},"type":"array","uniqueItems":true} required"#),
        (
            "x: [Int8?]",
            #"{"items":{"maximum":127,"minimum":-128,"nullable":true,"type":"integer"},"type":"array"} required"#
        ),
        (
            "x: [String: Bool]",
            #"{"additionalProperties":{"type":"boolean"},"properties":{},"required":[],"type":"object"} required"#
        ),
        (
            "x: Dictionary<String, [URL]>",
            #"{"additionalProperties":{"items":{"format":"uri","type":"string"},"type":"array"},"properties":{},"#
                + #""required":[],"type":"object"} required"#
        ),
    ]

    @Test("collections nest their element schemas", arguments: collections)
    func collection(parameters: String, expected: String) {
        #expect(Snippet.parameterSchema(parameters) == expected)
    }

    static let defaults: [(String, String)] = [
        ("x: Int = 5", #"{"default":5,"maximum":9007199254740992,"minimum":-9007199254740992,"type":"integer"}"#),
        ("x: Int8 = -0x10", #"{"default":-16,"maximum":127,"minimum":-128,"type":"integer"}"#),
        ("x: Double = 1_000.5", #"{"default":1000.5,"type":"number"}"#),
        ("x: Double = 2", #"{"default":2,"type":"number"}"#),
        (#"x: String = "a\"b""#, #"{"default":"a\"b","type":"string"}"#),
        ("x: Bool = false", #"{"default":false,"type":"boolean"}"#),
        ("x: String? = nil", #"{"type":"string"}"#),
        ("x: String? = \"y\"", #"{"default":"y","type":"string"}"#),
        (
            "x: [Int8] = [1, -2]",
            #"{"default":[1,-2],"items":{"maximum":127,"minimum":-128,"type":"integer"},"type":"array"}"#
        ),
        ("x: [String] = []", #"{"default":[],"items":{"type":"string"},"type":"array"}"#),
        (
            #"x: [String: Bool] = ["a": true]"#,
            #"{"additionalProperties":{"type":"boolean"},"default":{"a":true},"properties":{},"required":[],"type":"object"}"#
        ),
        ("x: String = defaultName", #"{"type":"string"}"#),
        ("x: String = \"\\(1)\"", #"{"type":"string"}"#),
        ("x: Date = Date()", #"{"format":"date-time","type":"string"}"#),
    ]

    @Test("literal defaults appear in the schema and make the parameter optional", arguments: defaults)
    func defaultValue(parameters: String, expected: String) {
        #expect(Snippet.parameterSchema(parameters) == expected)
    }

    static let userTypes: [(String, String, String)] = [
        (
            "x: Mode", "enum Mode: String { case fast, slow = \"SLOW\" }",
            #"{"enum":["fast","SLOW"],"type":"string"} required"#
        ),
        (
            "x: Mode = .slow", "enum Mode: String { case fast\n case slow = \"SLOW\" }",
            #"{"default":"SLOW","enum":["fast","SLOW"],"type":"string"}"#
        ),
        (
            "x: [Level] = [.high, Level.low]", "enum Level: Int { case low = -1, mid, high = 10, top }",
            #"{"default":[10,-1],"items":{"enum":[-1,0,10,11],"type":"integer"},"type":"array"}"#
        ),
        ("x: Outer.Inner", "enum Outer { enum Inner: UInt8 { case a } }", #"{"enum":[0],"type":"integer"} required"#),
        (
            "x: Alias", "typealias Alias = [Mode]\nenum Mode: String { case a }",
            #"{"items":{"enum":["a"],"type":"string"},"type":"array"} required"#
        ),
        (
            "x: Point?",
            """
            /// A point.
            struct Point: Codable {
                /// Across.
                /// - Minimum: 0
                var x: Double
                var y: Double?
                let label = "p"
                static var origin = Point()
                var length: Double { 0 }
                var tags: [String] = []
            }
            """,
            #"{"description":"A point.","properties":{"tags":{"items":{"type":"string"},"type":"array"},"#
                + #""x":{"description":"Across.","minimum":0,"type":"number"},"y":{"type":"number"}},"#
                + #""required":["x","tags"],"type":"object"}"#
        ),
        (
            "x: Wrapper",
            """
            struct Wrapper: Decodable {
                var inner: Inner
                var renamed: Int8
                var skipped: Bool = false
                enum CodingKeys: String, CodingKey { case inner, renamed = "re_named" }
                struct Inner: Codable { var on: Bool }
            }
            """,
            #"{"properties":{"inner":{"properties":{"on":{"type":"boolean"}},"required":["on"],"type":"object"},"#
                + #""re_named":{"maximum":127,"minimum":-128,"type":"integer"}},"required":["inner","re_named"],"#
                + #""type":"object"} required"#
        ),
        (
            "x: Later", "extension Later: Codable {}\nstruct Later { var a: String }",
            #"{"properties":{"a":{"type":"string"}},"required":["a"],"type":"object"} required"#
        ),
    ]

    @Test("enums and Codable structs declared in the sources are resolved", arguments: userTypes)
    func userType(parameters: String, extra: String, expected: String) {
        #expect(Snippet.parameterSchema(parameters, extra: extra) == expected)
    }

    @Test func docCommentsDescribeParametersInBothForms() {
        let source = """
            /// Summary line one
            /// continues here.
            ///
            /// Second paragraph.
            /// - Parameter a: First.
            /// - Parameter b: Second,
            ///   wrapped.
            ///   - MaxLength: 3
            /// - Returns: Nothing.
            // @ResolveKit(name: "f")
            struct F: ResolveKitFunction {
                func perform(a: Int8, b: String, c: Bool) async throws {}
            }
            """
        #expect(
            Snippet.schema(source)
                == #"{"properties":{"a":{"description":"First.","maximum":127,"minimum":-128,"type":"integer"},"#
                + #""b":{"description":"Second, wrapped.","maxLength":3,"type":"string"},"c":{"type":"boolean"}},"#
                + #""required":["a","b","c"],"type":"object"}"#)
        let (manifest, _) = Snippet.manifest(["F.swift": source])
        #expect(manifest.functions.first?.description == "Summary line one continues here.\n\nSecond paragraph.")
    }
}
