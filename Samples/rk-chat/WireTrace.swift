import Foundation
import ResolveKit
import ResolveKitHTTP

/// `--trace-wire FILE`: the runtime's wire tap as JSON lines, one per event frame or HTTP exchange, with anything
/// that looks like a secret masked (the API key, bearer values, JSON web tokens such as capability tokens).
struct WireTrace {
    let file: FileHandle
    let secrets: [String]

    /// Opens `path` for appending.
    /// - Throws: the file's error, for the CLI to name the file.
    init(path: String, secrets: [String]) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
        }
        file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seekToEnd()
        self.secrets = secrets.filter { $0.count >= 4 }
    }

    /// Writes every record of `tap` until it ends (the runtime stopped).
    func write(_ tap: AsyncStream<ResolveKitWireRecord>) async {
        let start = ContinuousClock.now
        for await record in tap {
            var line: JSONObject = ["t_ms": .number(Self.milliseconds(ContinuousClock.now - start))]
            switch record {
            case .event(let id, let type, let data):
                line["kind"] = "event"
                line["id"] = id.map(JSONValue.string) ?? .null
                line["type"] = .string(type)
                line["data"] = .string(mask(data))
            case .exchange(let exchange):
                line["kind"] = "exchange"
                line["method"] = .string(exchange.method.rawValue)
                line["url"] = .string(mask(exchange.url))
                line["status"] = exchange.status.map { .number(Double($0)) } ?? .null
                line["failure"] = exchange.failure.map { .string("\($0)") } ?? .null
                line["first_byte_ms"] = .number(Self.milliseconds(exchange.timings.firstByte))
                line["total_ms"] = .number(Self.milliseconds(exchange.timings.total))
                line["reused_connection"] = .bool(exchange.reusedConnection)
            }
            file.write(Data(JSONValue.object(line).serializedBytes(options: .sortedKeys) + [UInt8(ascii: "\n")]))
        }
        try? file.close()
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000
    }

    /// `text` with the configured secrets, bearer values and JSON web tokens replaced by `«masked»`.
    func mask(_ text: String) -> String {
        var masked = text
        for secret in secrets { masked = masked.replacingOccurrences(of: secret, with: "«masked»") }
        for pattern in Self.patterns {
            masked = masked.replacingOccurrences(of: pattern, with: "«masked»", options: .regularExpression)
        }
        return masked
    }

    static let patterns = [
        #"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"#, #"(?i)bearer\s+[A-Za-z0-9._~+/=-]+"#,
    ]
}
