package import ResolveKitTools

/// Shows tool-call arguments readably: pretty JSON with sorted keys, long strings cut with how much is left out.
package enum ArgumentFormatter {
    /// The arguments for a checklist row: strings longer than `maxValueLength` cut as `… (+123 chars)`, at most
    /// `maxLines` lines with the number of lines left out.
    package static func summary(_ arguments: JSONValue, maxValueLength: Int = 60, maxLines: Int = 8) -> [String] {
        let lines = full(cut(arguments, maxValueLength))
        guard lines.count > maxLines else { return lines }
        return Array(lines.prefix(maxLines - 1)) + ["… (+\(lines.count - maxLines + 1) lines)"]
    }

    /// The arguments in full: pretty JSON with sorted keys, one element per line.
    package static func full(_ arguments: JSONValue) -> [String] {
        if case .object(let members) = arguments, members.isEmpty { return ["(no arguments)"] }
        return arguments.serialized(options: [.sortedKeys, .prettyPrinted]).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
    }

    private static func cut(_ value: JSONValue, _ limit: Int) -> JSONValue {
        switch value {
        case .string(let text) where text.count > limit:
            .string(String(text.prefix(limit)) + "… (+\(text.count - limit) chars)")
        case .array(let elements): .array(elements.map { cut($0, limit) })
        case .object(let members): .object(members.mapValues { cut($0, limit) })
        default: value
        }
    }
}
