/// How an OTLP/HTTP body is encoded: `OTEL_EXPORTER_OTLP_PROTOCOL`'s two HTTP values.
public enum OTLPEncoding: String, Sendable, Hashable, CaseIterable {
    /// `http/protobuf`: protocol buffers' binary encoding, `application/x-protobuf`. OpenTelemetry's default, and
    /// the only one some endpoints take (Elastic's APM server, Seq).
    case protobuf = "http/protobuf"
    /// `http/json`: OTLP's JSON encoding, `application/json`; readable on the wire, more than twice the bytes.
    case json = "http/json"

    /// The `Content-Type` of a body in this encoding.
    public var contentType: String {
        switch self {
        case .protobuf: "application/x-protobuf"
        case .json: "application/json"
        }
    }
}
