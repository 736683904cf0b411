import Foundation
import ResolveKitCLI
import ResolveKitHTTP

extension NetworkOptions {
    /// `--header 'Name: value'` (repeatable) or `RESOLVEKIT_HEADERS` (one per line); `@FILE` for either reads one
    /// header per line from a file (blank lines and `#` comments left out), whose values count as secrets.
    func resolveHeaders(
        _ lookup: Lookup, readFile: (String) throws -> [UInt8], into resolved: inout Resolved
    ) throws(UsageError) {
        guard let entries = try lookup.list(.header, separatedBy: \.isNewline) else { return }
        var headers = HTTPHeaders()
        for entry in entries.value {
            guard entry.hasPrefix("@") else {
                headers.add(try Self.header(entry, source: entries.source))
                continue
            }
            let path = String(entry.dropFirst())
            let bytes: [UInt8]
            do {
                bytes = try readFile(path)
            } catch {
                throw UsageError("\(entries.source) @\(path) cannot be read")
            }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }).enumerated()
            where !line.isEmpty && !line.hasPrefix("#") {
                // The line number, so a person finds the line; its text may be a secret.
                let field = try Self.header(line, source: "\(entries.source) @\(path):\(index + 1)")
                resolved.secrets.append(field.value)
                headers.add(field)
            }
        }
        resolved.settings.headers = headers
        resolved.summary["headers"] = headers.map(\.name).joined(separator: ",")
    }

    /// One `Name: value` field, checked as `NetworkSettings` checks extra headers. An error names the header but
    /// never shows its value, which may be a token.
    static func header(_ text: String, source: String) throws(UsageError) -> HTTPHeaders.Field {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw UsageError("\(source) expects 'Name: value', e.g. 'X-Tenant: acme'")
        }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw UsageError("\(source) \(name) has no value") }
        guard !NetworkSettings.protectedHeaderNames.contains(name.lowercased()) else {
            throw UsageError(
                "\(source) may not set \(name): ResolveKit sets it itself (the API key, the proxy's credentials, "
                    + "the capability token or the message's framing)")
        }
        let field = HTTPHeaders.Field(name: name, value: value)
        do {
            try NetworkSettings.check(field, addedTo: HTTPHeaders())
        } catch {
            throw UsageError("\(source): \(error.message)")
        }
        return field
    }
}

extension HTTPHeaders {
    fileprivate mutating func add(_ field: Field) { add(name: field.name, value: field.value) }
}
