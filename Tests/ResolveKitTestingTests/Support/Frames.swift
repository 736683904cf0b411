import ResolveKitCore

/// Reads the envelope of one SSE frame (`id: …\nevent: …\ndata: …\n\n`).
struct Frame {
    var id: String
    var type: String
    var envelope: JSONValue

    init?(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 5, lines[0].hasPrefix("id: "), lines[1].hasPrefix("event: "), lines[2].hasPrefix("data: "),
            let envelope = try? JSONValue(parsing: String(lines[2].dropFirst(6)))
        else { return nil }
        id = String(lines[0].dropFirst(4))
        type = String(lines[1].dropFirst(7))
        self.envelope = envelope
    }

    var payload: JSONValue { envelope["payload"] ?? .null }
}
