import ResolveKitCore
import Synchronization

/// An OTLP/HTTP traces endpoint for tests, served by a ``LoopbackHTTPServer``: it keeps every export and reads its
/// spans from either encoding, protobuf or JSON, gzipped or not. It answers 200 (an empty
/// `ExportTraceServiceResponse` in the request's encoding), or what its script says first: another status, a
/// `Retry-After`, or an answer after a delay (an endpoint that is overloaded, failing or slow); a gzipped body that
/// does not inflate gets a 400.
///
/// ```swift
/// let collector = OTLPTraceCollector()
/// let server = try LoopbackHTTPServer.start(handler: collector.handler)
/// // OTEL_EXPORTER_OTLP_ENDPOINT=\(server.baseURL) … then:
/// let turn = try #require(collector.spans.first { $0.name == "invoke_agent" })
/// ```
public final class OTLPTraceCollector: Sendable {
    /// One span as exported.
    public struct Span: Sendable, Hashable {
        /// 32 hex digits.
        public var traceID: String
        /// 16 hex digits.
        public var spanID: String
        /// The parent's 16 hex digits; `nil` for a root span.
        public var parentSpanID: String?
        /// The span's name, e.g. `execute_tool get_time`.
        public var name: String
        /// OTLP's `SpanKind` number: 1 internal, 2 server, 3 client.
        public var kind: Int
        /// When it started and ended, in nanoseconds since the Unix epoch.
        public var startTimeUnixNano: UInt64
        /// When it ended.
        public var endTimeUnixNano: UInt64
        /// Its attributes as text: strings as they are, numbers and booleans as written (`616`, `true`).
        public var attributes: [String: String]
        /// OTLP's `StatusCode`: 0 unset, 1 ok, 2 error.
        public var statusCode: Int
        /// The `service.name` of its resource.
        public var serviceName: String?
    }

    /// One scripted answer.
    public struct Reply: Sendable {
        /// The status to answer with.
        public var status: Int
        /// A `Retry-After` value to send.
        public var retryAfter: String?
        /// How long to wait before answering.
        public var delay: Duration?

        /// Creates an answer.
        public init(status: Int, retryAfter: String? = nil, delay: Duration? = nil) {
            self.status = status
            self.retryAfter = retryAfter
            self.delay = delay
        }
    }

    private struct State {
        var requests: [LoopbackRequest] = []
        var spans: [Span] = []
        var script: [Reply]
        var repeating: Reply?
    }

    private let state: Mutex<State>

    /// A collector answering `script` first, then `repeating` to every later export (200 by default).
    public init(script: [Reply] = [], repeating: Reply? = nil) {
        state = Mutex(State(script: script, repeating: repeating))
    }

    /// Every export request received, in order.
    public var requests: [LoopbackRequest] { state.withLock { $0.requests } }

    /// Every span of the exports answered 2xx, in order.
    public var spans: [Span] { state.withLock { $0.spans } }

    /// The handler to serve.
    public var handler: LoopbackHandler {
        { request in
            let reply = self.state.withLock { state -> Reply in
                state.requests.append(request)
                if !state.script.isEmpty { return state.script.removeFirst() }
                return state.repeating ?? Reply(status: 200)
            }
            if let delay = reply.delay { try? await Task.sleep(for: delay) }
            var body = request.body
            if request.header("Content-Encoding")?.lowercased() == "gzip" {
                guard let inflated = try? Gzip.decompress(body, maxOutput: Self.maxInflatedBytes) else {
                    return LoopbackResponse(status: 400, body: .bytes(Array("the gzip body does not inflate".utf8)))
                }
                body = inflated
            }
            if (200..<300).contains(reply.status) {
                let spans = Self.spans(in: body)
                self.state.withLock { $0.spans += spans }
            }
            let json = request.header("Content-Type")?.hasPrefix("application/json") == true
            var headers = [(name: "Content-Type", value: json ? "application/json" : "application/x-protobuf")]
            if let retryAfter = reply.retryAfter { headers.append((name: "Retry-After", value: retryAfter)) }
            return LoopbackResponse(status: reply.status, headers: headers, body: .bytes(json ? Array("{}".utf8) : []))
        }
    }

    /// The largest body a gzip request may inflate to.
    static let maxInflatedBytes = 64 << 20

    /// The spans of one `ExportTraceServiceRequest`, in protobuf or in OTLP's JSON encoding (a JSON body begins
    /// with `{`, a protobuf one never does), gzipped or not (a gzip body begins with `1f 8b`); empty when it is
    /// neither.
    public static func spans(in body: [UInt8]) -> [Span] {
        if body.starts(with: [0x1F, 0x8B]) {
            guard let inflated = try? Gzip.decompress(body, maxOutput: maxInflatedBytes) else { return [] }
            return spans(in: inflated)
        }
        guard body.first == UInt8(ascii: "{") else { return protobufSpans(in: body) }
        guard let document = try? JSONValue(parsing: body) else { return [] }
        var result: [Span] = []
        for resourceSpans in document["resourceSpans"]?.arrayValue ?? [] {
            let resource = attributes(resourceSpans["resource"]?["attributes"])
            for scopeSpans in resourceSpans["scopeSpans"]?.arrayValue ?? [] {
                for span in scopeSpans["spans"]?.arrayValue ?? [] {
                    let parent = span["parentSpanId"]?.stringValue
                    result.append(
                        Span(
                            traceID: span["traceId"]?.stringValue ?? "", spanID: span["spanId"]?.stringValue ?? "",
                            parentSpanID: parent?.isEmpty == false ? parent : nil,
                            name: span["name"]?.stringValue ?? "", kind: span["kind"]?.intValue ?? 0,
                            startTimeUnixNano: UInt64(span["startTimeUnixNano"]?.stringValue ?? "") ?? 0,
                            endTimeUnixNano: UInt64(span["endTimeUnixNano"]?.stringValue ?? "") ?? 0,
                            attributes: attributes(span["attributes"]),
                            statusCode: span["status"]?["code"]?.intValue ?? 0, serviceName: resource["service.name"]))
                }
            }
        }
        return result
    }

    private static func protobufSpans(in body: [UInt8]) -> [Span] {
        guard let request = ProtobufMessage(body[...]) else { return [] }
        var result: [Span] = []
        for resourceSpans in request.messages(1) {
            let resource = attributes(resourceSpans.message(1)?.messages(1) ?? [])
            for span in resourceSpans.messages(2).flatMap({ $0.messages(2) }) {
                result.append(
                    Span(
                        traceID: hex(span.bytes(1)), spanID: hex(span.bytes(2)),
                        parentSpanID: span.bytes(4).flatMap { $0.isEmpty ? nil : hex($0) },
                        name: span.string(5) ?? "", kind: Int(span.integer(6) ?? 0),
                        startTimeUnixNano: span.integer(7) ?? 0, endTimeUnixNano: span.integer(8) ?? 0,
                        attributes: attributes(span.messages(9)),
                        statusCode: Int(span.message(15)?.integer(3) ?? 0), serviceName: resource["service.name"]))
            }
        }
        return result
    }

    private static func hex(_ bytes: ArraySlice<UInt8>?) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (bytes ?? []).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// `KeyValue`s read from protobuf, as the JSON encoding's `attributes` would have them.
    private static func attributes(_ keyValues: [ProtobufMessage]) -> [String: String] {
        attributes(.array(keyValues.map { ["key": .string($0.string(1) ?? ""), "value": anyValue($0.message(2))] }))
    }

    /// An `AnyValue` as the JSON encoding writes it: `{"stringValue": …}`, `{"intValue": "…"}`, ….
    private static func anyValue(_ value: ProtobufMessage?) -> JSONValue {
        guard let (number, field) = value?.fields.last else { return [:] }
        switch (number, field) {
        case (1, .bytes(let text)): return ["stringValue": .string(String(decoding: text, as: UTF8.self))]
        case (2, .varint(let flag)): return ["boolValue": .bool(flag != 0)]
        case (3, .varint(let number)): return ["intValue": .string(String(Int64(bitPattern: number)))]
        case (4, .fixed64(let bits)): return ["doubleValue": .number(Double(bitPattern: bits))]
        case (5, .bytes(let array)):
            let values = ProtobufMessage(array)?.messages(1).map { anyValue($0) } ?? []
            return ["arrayValue": ["values": .array(values)]]
        default: return [:]
        }
    }

    private static func attributes(_ list: JSONValue?) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list?.arrayValue ?? [] {
            guard let key = attribute["key"]?.stringValue, let value = attribute["value"]?.objectValue?.first else {
                continue
            }
            switch value.key {
            case "stringValue", "intValue": result[key] = value.value.stringValue ?? value.value.serialized()
            default: result[key] = value.value.serialized()
            }
        }
        return result
    }
}
