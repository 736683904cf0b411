import Foundation

/// The line format of the audit trail: canonical JSON (sorted keys) whose last member is `"hash"`, the SHA-256
/// of the text before it closed with `}`.
enum AuditChain {
    private static let hashMarker = Array(#","hash":""#.utf8)

    /// The line for `object` (with its newline) and its hash.
    static func line(_ object: JSONObject) -> (bytes: [UInt8], hash: String) {
        let body = JSONValue.object(object).serializedBytes(options: .sortedKeys)
        let hash = SHA256.hex(SHA256.digest(body))
        var line = Array(body.dropLast())
        line += hashMarker
        line += Array(hash.utf8)
        line += Array("\"}\n".utf8)
        return (line, hash)
    }

    /// A line split into its hashed body and the hash it claims, or `nil` when it does not have the form.
    static func split(_ line: ArraySlice<UInt8>) -> (body: [UInt8], claimed: String)? {
        let suffixLength = hashMarker.count + 64 + 2
        guard line.count > suffixLength, line.last == UInt8(ascii: "}") else { return nil }
        let markerStart = line.endIndex - suffixLength
        guard Array(line[markerStart..<markerStart + hashMarker.count]) == hashMarker else { return nil }
        let claimed = String(decoding: line[(markerStart + hashMarker.count)..<(line.endIndex - 2)], as: UTF8.self)
        guard
            claimed.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        else { return nil }
        return (Array(line[..<markerStart]) + [UInt8(ascii: "}")], claimed)
    }

    /// The hash of the last whole line of the file at `path`, or `nil` when there is none.
    static func lastHash(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd(), end > 0 else { return nil }
        try? handle.seek(toOffset: end > 65536 ? end - 65536 : 0)
        let tail = [UInt8]((try? handle.readToEnd()) ?? Data())
        for line in tail.split(separator: UInt8(ascii: "\n")).reversed() {
            if let (_, claimed) = split(line) { return claimed }
        }
        return nil
    }

    /// The file's size in bytes, 0 when it does not exist.
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
