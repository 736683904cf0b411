/// An error body of the backend (WireProtocol §3), read leniently: any bytes give some value.
public enum ServerErrorBody: Sendable, Hashable, CustomStringConvertible {
    /// `{"detail": "<text>"}`: ordinary HTTP errors (401, 404, 409, 410 …).
    case detail(String)
    /// `{"detail": {"code": …, "message": …}}`: e.g. 403 `chat_unavailable`.
    case coded(code: String, message: String)
    /// `{"detail": [ {type, loc, msg, input} … ]}`: 422 request validation.
    case validation([ValidationIssue])
    /// Anything else (e.g. a plain `Internal Server Error`), cut to 512 characters, on one line; an HTML page (a
    /// proxy's or gateway's error page) as its title.
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
            self = .other(Self.summary(of: bytes))
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

    /// A body that is not the backend's JSON in a line: an HTML page by its title and who likely sent it, any other
    /// text cut to 512 characters with its line breaks and runs of spaces as one space.
    static func summary(of bytes: some Collection<UInt8>) -> String {
        let text = String(decoding: Array(bytes.prefix(4096)), as: UTF8.self)
        let lowered = text.lowercased()
        guard lowered.contains("<html") || lowered.hasPrefix("<!doctype") else {
            return oneLine(String(text.prefix(512)))
        }
        var page = "an HTML page"
        let tags = [("<title>", "</title>"), ("<TITLE>", "</TITLE>")]
        for (open, close) in tags {
            guard let start = text.firstRange(of: open), let end = text[start.upperBound...].firstRange(of: close)
            else { continue }
            let title = oneLine(String(text[start.upperBound..<end.lowerBound]))
            if !title.isEmpty { page += " titled '\(title)'" }
            break
        }
        return page + ", not the backend's JSON: a proxy or gateway in front of it answered"
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
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
