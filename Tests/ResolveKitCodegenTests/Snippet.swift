import ResolveKitCore

@testable import ResolveKitCodegen

/// Runs source fragments through the generator stages for tests.
enum Snippet {
    /// An annotated function struct around a `perform` parameter list, followed by `extra` declarations.
    static func function(_ parameters: String, returns: String = "String", extra: String = "") -> String {
        """
        /// Does a thing.
        // @ResolveKit(name: "do_thing")
        struct DoThing: ResolveKitFunction {
            func perform(\(parameters)) async throws -> \(returns) { "" }
        }
        \(extra)
        """
    }

    /// The manifest and diagnostics of `sources` (path → text).
    static func manifest(_ sources: [String: String]) -> (CodegenManifest, [Diagnostic]) {
        ManifestBuilder.build(
            sources.sorted { $0.key < $1.key }.map { DeclarationParser.parse(source: $0.value, path: $0.key) })
    }

    /// The parameters schema of the only function in `source`, as compact JSON with sorted keys.
    static func schema(_ source: String) -> String {
        let (manifest, diagnostics) = manifest(["Snippet.swift": source])
        guard diagnostics.isEmpty, let function = manifest.functions.first else {
            return diagnostics.map(\.description).joined(separator: "\n")
        }
        return JSONValue.object(function.schema.jsonObject).serialized(options: .sortedKeys)
    }

    /// The schema of parameter `x` and whether it is required.
    static func parameterSchema(_ parameters: String, extra: String = "") -> String {
        let (manifest, diagnostics) = manifest(["Snippet.swift": function(parameters, extra: extra)])
        guard diagnostics.isEmpty, let function = manifest.functions.first else {
            return diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }.joined(
                separator: "\n")
        }
        let property = function.schema.properties["x"].map { JSONValue.object($0.jsonObject) } ?? .null
        return property.serialized(options: .sortedKeys) + (function.schema.required.contains("x") ? " required" : "")
    }

    /// The diagnostics of `sources` as `path:line:column: severity: message`.
    static func diagnostics(_ sources: [String: String]) -> [String] {
        manifest(sources).1.map(\.description)
    }
}
