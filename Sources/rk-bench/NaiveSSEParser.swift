import Foundation

/// The baseline: how a quick SSE parser is usually written with Foundation strings (decode each chunk, split on
/// "\n" with `components(separatedBy:)`, split fields on ":" and trim). It is what the ResolveKit iOS client does
/// (as the reference iOS client parses), and just as sloppy: LF only, values fully trimmed.
struct NaiveSSEParser {
    private var buffer = ""
    private var data: [String] = []
    private var id: String?
    private var type: String?

    /// Feeds a chunk; calls `onEvent` with (id, type, data) for each complete event.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, onEvent: (String?, String, String) -> Void) {
        buffer += String(decoding: chunk, as: UTF8.self)
        var lines = buffer.components(separatedBy: "\n")
        buffer = lines.removeLast()
        for line in lines {
            if line.isEmpty {
                if !data.isEmpty { onEvent(id, type ?? "message", data.joined(separator: "\n")) }
                data.removeAll()
                type = nil
                continue
            }
            if line.hasPrefix(":") { continue }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let field = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
            switch field {
            case "data": data.append(value)
            case "id": id = value
            case "event": type = value
            default: break
            }
        }
    }
}
