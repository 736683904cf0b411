import ResolveKitCore

/// Renders the registry as JSON for tools and reviews: names, descriptions, schemas and flags, keys sorted.
enum ManifestRenderer {
    /// The manifest as pretty-printed JSON with sorted keys, ending with a newline.
    static func render(_ manifest: CodegenManifest, moduleName: String) -> String {
        let functions: [JSONValue] = manifest.functions.map { function in
            .object([
                "name": .string(function.name),
                "description": .string(function.description),
                "parameters_schema": .object(function.schema.jsonObject),
                "requires_approval": .bool(function.requiresApproval),
                "timeout_seconds": function.timeoutSeconds.map { .number(Double($0)) } ?? .null,
                "swift_type": .string(function.typeName),
            ])
        }
        let document: JSONValue = .object(["module": .string(moduleName), "functions": .array(functions)])
        return document.serialized(options: [.sortedKeys, .prettyPrinted]) + "\n"
    }
}
