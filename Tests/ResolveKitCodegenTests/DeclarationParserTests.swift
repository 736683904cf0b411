import Testing

@testable import ResolveKitCodegen

/// The declaration model: nesting, members, signatures, cases, properties and where annotations attach.
struct DeclarationParserTests {
    static func parse(_ source: String) -> SourceFileModel {
        DeclarationParser.parse(source: source, path: "M.swift")
    }

    @Test func performSignaturesKeepLabelsNamesTypesDefaultsAndEffects() throws {
        let model = Self.parse(
            """
            struct S {
                @MainActor
                public func perform<T: Sendable>(_ a: [String: Set<Int>], to b: Int? = .init(3), c: some P, d: Int...) async rethrows -> (Int, T) where T: Hashable {
                    let closure = { (x: Int) -> Int in x }
                }
                func other() throws(MyError) -> Void {}
            }
            """)
        let functions = try #require(model.declarations.first?.functions)
        #expect(functions.map(\.name) == ["perform", "other"])
        let perform = functions[0]
        #expect(perform.genericParameters == ["T"])
        #expect(perform.isAsync && perform.isThrowing)
        #expect(perform.returnType?.description == "(Int, T)")
        #expect(perform.parameters.map(\.label) == [nil, "to", "c", "d"])
        #expect(perform.parameters.map(\.name) == ["a", "b", "c", "d"])
        #expect(perform.parameters.map(\.type.description) == ["[String: Set<Int>]", "Int?", "some P", "Int"])
        #expect(perform.parameters[1].defaultValue?.text == ".init(3)")
        #expect(perform.parameters[3].isVariadic)
        #expect((perform.location.line, perform.location.column) == (3, 17))
        #expect(functions[1].isThrowing && !functions[1].isAsync)
        #expect(functions[1].returnType?.isVoid == true)
    }

    @Test func typesNestInsideTypesAndExtensionsWithTheirAccessAndInheritance() {
        let model = Self.parse(
            """
            public extension Outer.Middle where Self: Sendable {
                enum Inner: String, Codable { case a, b = "B" }
            }
            @available(*, deprecated) final class C<T>: Base<T>, P & Q {}
            private actor A {}
            """)
        let declarations = model.declarations
        #expect(declarations.map(\.kind) == [.extension, .class, .actor])
        #expect(declarations[0].name == "Outer.Middle")
        #expect(declarations[0].access == .public)
        #expect(declarations[0].nested.first?.inheritance == ["String", "Codable"])
        #expect(declarations[0].nested.first?.cases.map(\.name) == ["a", "b"])
        #expect(declarations[0].nested.first?.cases[1].rawValue.first?.stringValue == "B")
        #expect(declarations[1].genericParameters == ["T"])
        #expect(declarations[1].inheritance == ["Base", "P", "Q"])
        #expect(declarations[2].access == .private)
    }

    @Test func storedPropertiesAreToldApartFromComputedOnes() {
        let model = Self.parse(
            """
            struct P {
                /// The name.
                var name: String
                let fixed = 3, other: Int? = nil
                var computed: Int { 1 }
                var observed: Int = 0 { didSet { print(oldValue) } }
                static let shared = P(name: "x")
                lazy var late: [Int] = (0..<3).map { $0 }
                var closure: () -> Void = {}
            }
            """)
        let properties = model.declarations.first?.properties ?? []
        #expect(
            properties.map(\.name) == ["name", "fixed", "other", "computed", "observed", "shared", "late", "closure"])
        #expect(properties.map(\.isComputed) == [false, false, false, true, false, false, false, false])
        #expect(properties.map(\.hasInitializer) == [false, true, true, false, true, true, true, true])
        #expect(properties[0].documentation?.lines.map(\.text) == ["The name."])
        #expect(properties[5].isStatic && properties[6].isLazy)
    }

    @Test func annotationsAttachThroughDocCommentsAndAttributes() throws {
        let model = Self.parse(
            """
            /// Summary.
            // @ResolveKit(name: "a", timeout: 5)
            /// More.
            @MainActor @preconcurrency
            public struct A: ResolveKitFunction {}

            // @ResolveKitten is not an annotation.
            struct B {}
            """)
        let a = try #require(model.declarations.first)
        #expect(a.annotation?.arguments.map(\.label) == ["name", "timeout"])
        #expect(a.annotation?.arguments.map(\.value) == [.string("a"), .integer(5)])
        #expect(a.annotation.map { ($0.location.line, $0.location.column) } ?? (0, 0) == (2, 4))
        #expect(a.documentation?.lines.map(\.text) == ["Summary.", "More."])
        #expect(model.declarations[1].annotation == nil)
        #expect(model.diagnostics.isEmpty)
    }

    @Test func bracesInsideStringsCommentsAndBodiesDoNotEndATypeEarly() {
        let model = Self.parse(
            #"""
            struct Outer {
                func f() {
                    let s = "}}}"
                    let r = #"}"#
                    /* } */
                    // }
                    let m = """
                        }
                        """
                    if true { print("\(s.count) }") }
                }
                struct Inner {}
            }
            struct After {}
            """#)
        #expect(model.declarations.map(\.name) == ["Outer", "After"])
        #expect(model.declarations.first?.nested.map(\.name) == ["Inner"])
    }

    @Test func defaultValuesAreCopiedOntoOneLineWithoutComments() throws {
        let model = Self.parse(
            """
            struct S {
                func perform(a: [Int] = [1, // one
                                         2 /* two */ ], b: E = .`default`, c: Int = -1) async throws {}
            }
            """)
        let parameters = try #require(model.declarations.first?.functions.first?.parameters)
        #expect(parameters.map { $0.defaultValue?.text } == ["[1, 2 ]", ".`default`", "-1"])
    }

    @Test func blockDocCommentsAreSplitIntoLinesWithoutStars() {
        let model = Self.parse("/**\n * First.\n *\n * - Parameter x: Second.\n */\nstruct S {}")
        let documentation = model.declarations.first?.documentation?.documentation
        #expect(documentation?.summary == "First.")
        #expect(documentation?.parameters["x"]?.text == "Second.")
    }
}
