import ResolveKitCore
import Testing

@testable import ResolveKitCodegen

/// The result's schema (MCP's `outputSchema`): written for a `Codable` struct of the scanned sources, never an
/// error when the result cannot be described.
struct OutputSchemaTests {
    static func outputSchema(returns: String, extra: String) -> (String?, [String]) {
        let (manifest, diagnostics) = Snippet.manifest([
            "Snippet.swift": Snippet.function("", returns: returns, extra: extra)
        ])
        let schema = manifest.functions.first?.outputSchema.map {
            JSONValue.object($0.jsonObject).serialized(options: .sortedKeys)
        }
        return (schema, diagnostics.map(\.description))
    }

    @Test func aCodableStructResultHasItsSchema() {
        let (schema, diagnostics) = Self.outputSchema(
            returns: "Summary",
            extra: "/// A summary.\nstruct Summary: Codable { /// The count.\n var count: Int\n var note: String? }")
        #expect(diagnostics.isEmpty)
        #expect(schema?.contains(#""required":["count"]"#) == true)
        #expect(schema?.contains(#""note":{"type":"string"}"#) == true)
        #expect(schema?.contains(#""description":"A summary.""#) == true)
    }

    @Test(arguments: [
        ("String", ""),
        ("Summary", "struct Summary: Encodable { var count: Int }"),
        ("Summary?", "struct Summary: Codable { var count: Int }"),
        ("[Summary]", "struct Summary: Codable { var count: Int }"),
        ("Other", ""),
    ])
    func aResultThatIsNoDescribableObjectHasNoneAndNoError(returns: String, extra: String) {
        let (schema, diagnostics) = Self.outputSchema(returns: returns, extra: extra)
        #expect(schema == nil)
        #expect(diagnostics.isEmpty)
    }
}
