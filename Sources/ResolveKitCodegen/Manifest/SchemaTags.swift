import ResolveKitCore

/// Applies doc-comment constraint tags (`- Minimum: 0`, `- Pattern: ^[a-z]+$` …) to a schema.
enum SchemaTags {
    /// Sets each tag's keyword on `schema`; returns a diagnostic for every tag that does not fit the type or has a
    /// malformed value.
    static func apply(_ tags: [DocumentationTag], to schema: inout JSONSchema) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tag in tags {
            let label = "'- \(tag.name):'"
            switch tag.name {
            case "Minimum", "Maximum":
                guard schema.type == .integer || schema.type == .number else {
                    diagnostics.append(.error("\(label) applies only to integers and numbers", at: tag.location))
                    continue
                }
                guard let number = Double(tag.value.replacingUnderscores), number.isFinite else {
                    diagnostics.append(.error("\(label) needs a number, not '\(tag.value)'", at: tag.location))
                    continue
                }
                if tag.name == "Minimum" { schema.minimum = number } else { schema.maximum = number }
            case "MinLength", "MaxLength", "Pattern":
                guard schema.type == .string, schema.enumValues == nil else {
                    diagnostics.append(.error("\(label) applies only to strings", at: tag.location))
                    continue
                }
                if tag.name == "Pattern" {
                    guard !tag.value.isEmpty else {
                        diagnostics.append(.error("\(label) needs a regular expression", at: tag.location))
                        continue
                    }
                    schema.pattern = tag.value
                } else if let count = count(tag, into: &diagnostics) {
                    if tag.name == "MinLength" { schema.minLength = count } else { schema.maxLength = count }
                }
            default:
                guard schema.type == .array else {
                    diagnostics.append(.error("\(label) applies only to arrays and sets", at: tag.location))
                    continue
                }
                if let count = count(tag, into: &diagnostics) {
                    if tag.name == "MinItems" { schema.minItems = count } else { schema.maxItems = count }
                }
            }
        }
        return diagnostics
    }

    private static func count(_ tag: DocumentationTag, into diagnostics: inout [Diagnostic]) -> Int? {
        guard let count = Int(tag.value), count >= 0 else {
            diagnostics.append(
                .error("'- \(tag.name):' needs a non-negative integer, not '\(tag.value)'", at: tag.location))
            return nil
        }
        return count
    }
}
