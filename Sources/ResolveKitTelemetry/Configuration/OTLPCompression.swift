/// How an OTLP/HTTP body is compressed: `OTEL_EXPORTER_OTLP_COMPRESSION`'s values.
public enum OTLPCompression: String, Sendable, Hashable, CaseIterable {
    /// Sent as encoded (the default).
    case none
    /// `Content-Encoding: gzip`: a batch of calls' spans in protobuf is a ninth of the bytes (118 → 13 KB for 512),
    /// for about half a millisecond of the exporter's idle thread per batch. For an endpoint across a network that
    /// counts bytes.
    case gzip
}
