import Foundation
import Testing

@testable import ResolveKitCodegen

/// What the backend or compiler would reject is reported at its exact position.
struct DiagnosticsTests {
    static func annotated(_ annotation: String, _ body: String = "func perform() async throws {}") -> String {
        """
        /// Does a thing.
        \(annotation)
        struct DoThing: ResolveKitFunction {
            \(body)
        }
        """
    }

    static let annotationCases: [(String, String)] = [
        (
            #"// @ResolveKit(name: "bad name")"#,
            "D.swift:2:22: error: function name 'bad name' must match [A-Za-z0-9_-]{1,64}"
        ),
        (#"// @ResolveKit(name: "")"#, "D.swift:2:22: error: function name '' must match [A-Za-z0-9_-]{1,64}"),
        (
            "// @ResolveKit(name: \"\(String(repeating: "a", count: 65))\")",
            "D.swift:2:22: error: function name '\(String(repeating: "a", count: 65))' must match [A-Za-z0-9_-]{1,64}"
        ),
        (
            #"// @ResolveKit(name: "kb_search")"#,
            "D.swift:2:22: error: function name 'kb_search' is reserved by the backend"
        ),
        (
            #"// @ResolveKit(name: "escalate_to_human")"#,
            "D.swift:2:22: error: function name 'escalate_to_human' is reserved by the backend"
        ),
        (
            #"// @ResolveKit(name: "f", timeout: 0)"#,
            "D.swift:2:36: error: timeout must be between 1 and 300 seconds, not 0"
        ),
        (
            #"// @ResolveKit(name: "f", timeout: 301)"#,
            "D.swift:2:36: error: timeout must be between 1 and 300 seconds, not 301"
        ),
        (
            #"// @ResolveKit(name: "f", timeout: -1)"#,
            "D.swift:2:36: error: timeout must be between 1 and 300 seconds, not -1"
        ),
        (
            #"// @ResolveKit(name: "f", timeout: seconds)"#,
            "D.swift:2:36: error: annotation argument 'timeout' must be an integer literal"
        ),
        (#"// @ResolveKit(name: Names.f)"#, "D.swift:2:22: error: annotation argument 'name' must be a string literal"),
        (#"// @ResolveKit(name: "f\(x)")"#, "D.swift:2:22: error: annotation argument 'name' must be a string literal"),
        (
            #"// @ResolveKit(name: "f", requiresApproval: 1)"#,
            "D.swift:2:45: error: annotation argument 'requiresApproval' must be true or false"
        ),
        (
            #"// @ResolveKit(name: "f", readOnly: true)"#,
            "D.swift:2:27: error: unknown annotation argument 'readOnly'; expected name, description, timeout or requiresApproval"
        ),
        (#"// @ResolveKit(name: "f", name: "g")"#, "D.swift:2:27: error: duplicate annotation argument 'name'"),
        (
            #"// @ResolveKit(timeout: 5)"#,
            #"D.swift:2:4: error: @ResolveKit needs a name, as in @ResolveKit(name: "set_lights")"#
        ),
        (#"// @ResolveKit"#, "D.swift:2:4: error: expected '(' after @ResolveKit"),
        (#"// @ResolveKit("f")"#, #"D.swift:2:16: error: expected a labelled argument such as 'name: "…"'"#),
        (
            #"// @ResolveKit(name: "f""#,
            "D.swift:2:22: error: expected ')' to close @ResolveKit( on its line (an annotation is one comment line)"
        ),
        (
            "// @ResolveKit(name: \"f\", description: \"\(String(repeating: "x", count: 1001))\")",
            "D.swift:2:40: error: description is 1001 characters; the backend accepts at most 1000"
        ),
    ]

    @Test("annotation arguments are validated at their position", arguments: annotationCases)
    func annotationArgument(annotation: String, expected: String) {
        #expect(Snippet.diagnostics(["D.swift": Self.annotated(annotation)]) == [expected])
    }

    static let performCases: [(String, String)] = [
        ("func perform() async {}", "D.swift:4:10: error: perform(...) must be 'async throws'"),
        ("func perform() throws {}", "D.swift:4:10: error: perform(...) must be 'async throws'"),
        ("func run() async throws {}", "D.swift:3:8: error: struct 'DoThing' has no perform(...) method"),
        (
            "func perform() async throws {}\n    func perform(a: Int) async throws {}",
            "D.swift:5:10: error: struct 'DoThing' has more than one perform(...) method"
        ),
        ("mutating func perform() async throws {}", "D.swift:4:19: error: perform(...) must not be mutating"),
        (
            "func perform(a: Int...) async throws {}",
            "D.swift:4:18: error: variadic parameter 'a' is not supported; use an array"
        ),
        ("func perform(a: inout Int) async throws {}", "D.swift:4:18: error: inout parameter 'a' is not supported"),
        (
            "func perform(a: NSObject) async throws {}",
            "D.swift:4:21: error: unsupported type 'NSObject': it is neither a supported standard type nor declared in the scanned sources"
        ),
        (
            "func perform(a: (Int, Int)) async throws {}",
            "D.swift:4:21: error: unsupported type '(Int, Int)': a tuple cannot be a tool argument; use a Codable struct"
        ),
        (
            "func perform(a: @escaping () -> Void) async throws {}",
            "D.swift:4:21: error: unsupported type '@escaping () -> Void': closures, existentials and metatypes cannot be tool arguments"
        ),
        (
            "func perform(a: any Sendable) async throws {}",
            "D.swift:4:21: error: unsupported type 'any Sendable': closures, existentials and metatypes cannot be tool arguments"
        ),
        (
            "func perform<T>(a: [T]) async throws {}",
            "D.swift:4:25: error: unsupported type 'T': a generic parameter cannot be a tool argument"
        ),
        (
            "func perform(a: [Int: String]) async throws {}",
            "D.swift:4:21: error: unsupported type '[Int: String]': dictionary keys must be String"
        ),
        (
            "func perform(a: Result<Int, Error>) async throws {}",
            "D.swift:4:21: error: unsupported type 'Result<Int, Error>': only Array, Set, Dictionary and Optional generic types are supported"
        ),
        (
            "func perform(a: Int??) async throws {}",
            "D.swift:4:21: error: unsupported type 'Int??': nested optionals cannot be tool arguments"
        ),
        (
            "func perform(a: Box) async throws {}\n    final class Box {}",
            "D.swift:4:21: error: unsupported type 'Box': a class cannot be a tool argument; use a Codable struct"
        ),
        (
            "func perform(a: Named) async throws {}\n    protocol Named {}",
            "D.swift:4:21: error: unsupported type 'Named': a protocol cannot be a tool argument"
        ),
        (
            "func perform(a: Plain) async throws {}\n    enum Plain { case a }",
            "D.swift:4:21: error: unsupported type 'Plain': an enum argument needs a String or integer raw value, as in 'enum Plain: String'"
        ),
        (
            "func perform(a: Loose) async throws {}\n    struct Loose { var a: Int }",
            "D.swift:4:21: error: struct 'DoThing.Loose' must conform to Decodable (or Codable) to be a tool argument"
        ),
        (
            "func perform(a: Node) async throws {}\n    struct Node: Codable { var children: [Node] }",
            "D.swift:5:43: error: unsupported type 'Node': it contains itself (DoThing.Node → DoThing.Node); a recursive type has no finite schema"
        ),
        (
            "func perform(a: Hidden) async throws {}\n    private enum Hidden: String { case a }",
            "D.swift:4:21: error: type 'DoThing.Hidden' is private; the generated file cannot use it, so make it internal or wider"
        ),
        (
            "func perform(a: Loose) async throws {}\n    struct Loose: Codable { var a = 1 }",
            "D.swift:5:33: error: property 'a' of 'DoThing.Loose' needs an explicit type to be described in the schema"
        ),
    ]

    @Test("perform signatures and parameter types are checked at their position", arguments: performCases)
    func performSignature(body: String, expected: String) {
        let source = Self.annotated(#"// @ResolveKit(name: "f")"#, body)
        #expect(Snippet.diagnostics(["D.swift": source]) == [expected])
    }

    static let placementCases: [(String, String)] = [
        (
            "/// Doc.\n// @ResolveKit(name: \"f\")\nfinal class C: ResolveKitFunction {}",
            "D.swift:2:4: error: @ResolveKit can only annotate a struct, not a class"
        ),
        (
            "// @ResolveKit(name: \"f\")\nenum E {}",
            "D.swift:1:4: error: @ResolveKit can only annotate a struct, not an enum"
        ),
        (
            "// @ResolveKit(name: \"f\")\nextension S {}",
            "D.swift:1:4: error: @ResolveKit cannot annotate an extension; put it above the struct declaration"
        ),
        (
            "struct S {\n    // @ResolveKit(name: \"f\")\n    func perform() async throws {}\n}",
            "D.swift:2:5: error: @ResolveKit must be directly above a struct declaration (doc comment lines may surround it)"
        ),
        (
            "func g() {\n    // @ResolveKit(name: \"f\")\n}",
            "D.swift:2:5: error: @ResolveKit must be directly above a struct declaration (doc comment lines may surround it)"
        ),
        (
            "/// Doc.\n// @ResolveKit(name: \"f\")\nstruct S { func perform() async throws {} }",
            "D.swift:3:8: error: struct 'S' must conform to ResolveKitFunction"
        ),
        (
            "// @ResolveKit(name: \"f\")\nstruct S: ResolveKitFunction { func perform() async throws {} }",
            "D.swift:2:8: error: struct 'S' needs a description: add a doc comment summary or description: to @ResolveKit"
        ),
        (
            "/// Doc.\n// @ResolveKit(name: \"f\")\nstruct S<T>: ResolveKitFunction { func perform() async throws {} }",
            "D.swift:3:8: error: function struct 'S' cannot be generic"
        ),
        (
            "/// Doc.\n// @ResolveKit(name: \"f\")\nprivate struct S: ResolveKitFunction { func perform() async throws {} }",
            "D.swift:3:16: error: struct 'S' is private; the generated file cannot extend it, so make it internal or wider"
        ),
        ("let s = \"abc", "D.swift:1:9: warning: unterminated string literal"),
    ]

    @Test("the annotation must sit directly above a struct that can be a function", arguments: placementCases)
    func placement(source: String, expected: String) {
        #expect(Snippet.diagnostics(["D.swift": source]) == [expected])
    }

    @Test func badDocTagsAreReportedAtTheTag() {
        let source = """
            /// Does a thing.
            /// - Parameters:
            ///   - a: Text.
            ///     - Minimum: 1
            ///   - b: Count.
            ///     - Maximum: lots
            ///     - MinItems: 2
            // @ResolveKit(name: "f")
            struct F: ResolveKitFunction { func perform(a: String, b: Int) async throws {} }
            """
        #expect(
            Snippet.diagnostics(["D.swift": source]) == [
                "D.swift:4:11: error: '- Minimum:' applies only to integers and numbers",
                "D.swift:6:11: error: '- Maximum:' needs a number, not 'lots'",
                "D.swift:7:11: error: '- MinItems:' applies only to arrays and sets",
            ])
    }

    @Test func duplicateNamesAcrossFilesPointAtTheLaterOneAndNameTheFirst() {
        let first = Self.annotated(#"// @ResolveKit(name: "same")"#)
        let second =
            "\n" + Self.annotated(#"// @ResolveKit(name: "same")"#).replacingOccurrences(of: "DoThing", with: "Other")
        #expect(
            Snippet.diagnostics(["A.swift": first, "B.swift": second]) == [
                "B.swift:3:22: error: duplicate function name 'same'; it is also declared at A.swift:2:22"
            ])
    }

    @Test(
        "an annotation spelled wrongly is a warning at its position, not silently ignored",
        arguments: [
            (#"// @Resolvekit(name: "do_thing")"#, "@Resolvekit"),
            (#"// @resolvekit(name: "do_thing")"#, "@resolvekit"),
            (#"/// ResolveKit(name: "do_thing")"#, "ResolveKit"),
            (#"// @ResolveKt(name: "do_thing")"#, "@ResolveKt"),
            (#"// @ResolvKits(name: "do_thing")"#, "@ResolvKits"),
        ])
    func nearMissesAreWarnings(annotation: String, spelling: String) {
        let message = "'\(spelling)' is not an annotation, so nothing below it is registered; "
            + "write '// @ResolveKit(name: …)'"
        #expect(Snippet.diagnostics(["D.swift": Self.annotated(annotation)]) == ["D.swift:2:1: warning: " + message])
    }

    /// Attributes of other tools in comments are not taken for typos of the annotation.
    @Test(arguments: ["// @Resolved(later)", "// @available(macOS 14, *)", "// @Resolver(x)", "// @Revolve(x)"])
    func commentsFarFromTheAnnotationAreNotWarnedAbout(comment: String) {
        #expect(Snippet.diagnostics(["D.swift": comment + "\nlet x = 1\n"]).isEmpty)
    }

    @Test func anAnnotationWithoutParenthesesIsAnError() {
        #expect(
            Snippet.diagnostics(["D.swift": Self.annotated("// @ResolveKit")])
                == ["D.swift:2:4: error: expected '(' after @ResolveKit"])
    }

    @Test(arguments: ["Self.standardLevel", "DoThing.standardLevel", "standardLevel"])
    func aDefaultValueThatUsesAPrivateMemberIsReportedByRkCodegen(expression: String) {
        let source = """
            /// Does a thing.
            // @ResolveKit(name: "do_thing")
            struct DoThing: ResolveKitFunction {
                private static let standardLevel = 3
                func perform(level: Int = \(expression)) async throws {}
            }
            """
        let column = 31  // where the default expression starts
        #expect(
            Snippet.diagnostics(["D.swift": source]) == [
                "D.swift:5:\(column): error: the default value of 'level' uses 'standardLevel', which is private to its "
                    + "file; the generated code is in another file: make 'standardLevel' internal"
            ])
    }

    @Test(arguments: ["Self.standardLevel()", "DoThing.standardLevel()", "standardLevel()"])
    func aDefaultValueThatCallsAPrivateStaticFunctionIsReportedByRkCodegen(expression: String) {
        let source = """
            /// Does a thing.
            // @ResolveKit(name: "do_thing")
            struct DoThing: ResolveKitFunction {
                fileprivate static func standardLevel() -> Int { 3 }
                func perform(level: Int = \(expression)) async throws {}
            }
            """
        #expect(
            Snippet.diagnostics(["D.swift": source]) == [
                "D.swift:5:31: error: the default value of 'level' uses 'standardLevel', which is fileprivate to its "
                    + "file; the generated code is in another file: make 'standardLevel' internal"
            ])
    }

    /// Another type's member out of sight of the generated file (or that type itself) is reported too.
    @Test(arguments: [
        ("enum Defaults { fileprivate static let n = 3 }", "n", "fileprivate"),
        ("private enum Defaults { static let n = 3 }", "Defaults", "private"),
    ])
    func aDefaultValueThatUsesAnotherTypesHiddenMemberIsReportedByRkCodegen(
        declaration: String, name: String, access: String
    ) {
        let source = """
            \(declaration)
            /// Does a thing.
            // @ResolveKit(name: "do_thing")
            struct DoThing: ResolveKitFunction {
                func perform(level: Int = Defaults.n) async throws {}
            }
            """
        #expect(
            Snippet.diagnostics(["D.swift": source]) == [
                "D.swift:5:31: error: the default value of 'level' uses '\(name)', which is \(access) to its "
                    + "file; the generated code is in another file: make '\(name)' internal"
            ])
    }

    @Test func aDefaultValueThatUsesAnInternalMemberIsFine() {
        let source = """
            /// Does a thing.
            // @ResolveKit(name: "do_thing")
            struct DoThing: ResolveKitFunction {
                static let standardLevel = 3
                func perform(level: Int = Self.standardLevel) async throws {}
            }
            """
        #expect(Snippet.diagnostics(["D.swift": source]).isEmpty)
    }
}
