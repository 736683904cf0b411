/// How OTLP travels and is encoded: `OTEL_EXPORTER_OTLP_PROTOCOL`'s three values.
public enum OTLPEncoding: String, Sendable, Hashable, CaseIterable {
    /// `http/protobuf`: protocol buffers' binary encoding, `application/x-protobuf`. OpenTelemetry's default, and
    /// the only one some endpoints take (Elastic's APM server, Seq).
    case protobuf = "http/protobuf"
    /// `http/json`: OTLP's JSON encoding, `application/json`; readable on the wire, more than twice the bytes.
    case json = "http/json"
    /// `grpc`: the protobuf encoding in a gRPC call over HTTP/2 (`application/grpc`, clear-text HTTP/2 for an
    /// `http://` endpoint) to the collector's `TraceService/Export` and `MetricsService/Export`, usually on port
    /// 4317. Needs the libcurl transport of `ResolveKitTelemetryHTTP`.
    case grpc

    /// The `Content-Type` of a body in this encoding.
    public var contentType: String {
        switch self {
        case .protobuf: "application/x-protobuf"
        case .json: "application/json"
        case .grpc: "application/grpc"
        }
    }
}
