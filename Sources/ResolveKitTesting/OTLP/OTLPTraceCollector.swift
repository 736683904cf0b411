import ResolveKitCore
import Synchronization

/// An OTLP/HTTP traces endpoint for tests, served by a ``LoopbackHTTPServer``: it keeps every export and reads its
/// spans from OTLP's JSON encoding. It answers 200 `{}`, or what its script says first: another status, a
/// `Retry-After`, or an answer after a delay (an endpoint that is overloaded, failing or slow).
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
            if (200..<300).contains(reply.status) {
                let spans = Self.spans(in: request.body)
                self.state.withLock { $0.spans += spans }
            }
            var headers = [(name: "Content-Type", value: "application/json")]
            if let retryAfter = reply.retryAfter { headers.append((name: "Retry-After", value: retryAfter)) }
            return LoopbackResponse(status: reply.status, headers: headers, body: .bytes(Array("{}".utf8)))
        }
    }

    /// The spans of one `ExportTraceServiceRequest` in OTLP's JSON encoding; empty when it is not one.
    public static func spans(in body: [UInt8]) -> [Span] {
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
