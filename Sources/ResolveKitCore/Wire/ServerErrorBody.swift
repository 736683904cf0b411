/// An error body of the backend (WireProtocol §3), read leniently: any bytes give some value.
public enum ServerErrorBody: Sendable, Hashable, CustomStringConvertible {
    /// `{"detail": "<text>"}`: ordinary HTTP errors (401, 404, 409, 410 …).
    case detail(String)
    /// `{"detail": {"code": …, "message": …}}`: e.g. 403 `chat_unavailable`.
    case coded(code: String, message: String)
    /// `{"detail": [ {type, loc, msg, input} … ]}`: 422 request validation.
    case validation([ValidationIssue])
    /// Anything else (e.g. a plain `Internal Server Error`), cut to 512 characters.
    case other(String)

    /// One 422 validation issue.
    public struct ValidationIssue: Sendable, Hashable {
        /// The pydantic error type, e.g. `missing`.
        public var type: String
        /// The location, e.g. `body.available_function_names`.
        public var location: String
        /// The message.
        public var message: String

        /// Creates an issue.
        public init(type: String, location: String, message: String) {
            self.type = type
            self.location = location
            self.message = message
        }
    }

    /// Reads an error body.
    public init(bytes: some Collection<UInt8>) {
        guard let json = try? JSONValue(parsing: bytes), let detail = json["detail"] else {
            self = .other(String(String(decoding: Array(bytes.prefix(512)), as: UTF8.self)))
            return
        }
        switch detail {
        case .string(let text): self = .detail(text)
        case .object(let object):
            self = .coded(code: object["code"]?.stringValue ?? "", message: object["message"]?.stringValue ?? "")
        case .array(let items):
            self = .validation(items.map { item in
                let location = item["loc"]?.arrayValue?.map { $0.stringValue ?? $0.serialized() }.joined(separator: ".")
                return ValidationIssue(
                    type: item["type"]?.stringValue ?? "", location: location ?? "", message: item["msg"]?.stringValue ?? "")
            })
        default: self = .other(detail.serialized())
        }
    }

    /// The `detail.code`, e.g. `chat_unavailable`, when present.
    public var code: String? {
        if case .coded(let code, _) = self { return code }
        return nil
    }

    /// Whether this is the capability/availability failure `403 chat_unavailable`.
    public var isChatUnavailable: Bool { code == "chat_unavailable" }

    /// A one-line summary for errors and logs.
    public var description: String {
        switch self {
        case .detail(let text): text
        case .coded(let code, let message): "\(code): \(message)"
        case .validation(let issues): issues.map { "\($0.location): \($0.message)" }.joined(separator: "; ")
        case .other(let text): text
        }
    }
}
