import ResolveKitCore

/// What an OTLP export sends, over HTTP or as a gRPC call: its URL, header fields and body.
enum OTLPCall {
    /// The collector's gRPC method for each signal.
    enum Method: String {
        case traces = "opentelemetry.proto.collector.trace.v1.TraceService/Export"
        case metrics = "opentelemetry.proto.collector.metrics.v1.MetricsService/Export"
    }

    /// The URL posted to: the endpoint, or over gRPC the endpoint with the method's path after it.
    static func url(_ endpoint: String, _ encoding: OTLPEncoding, _ method: Method) -> String {
        guard encoding == .grpc else { return endpoint }
        var base = endpoint
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + method.rawValue
    }

    /// The header fields of every request: the fixed ones, then the configured ones that do not replace them. A
    /// gRPC call tells the collector its deadline (`grpc-timeout`), so the collector stops working on a call the
    /// exporter has given up on.
    static func headers(
        _ configured: [(name: String, value: String)], encoding: OTLPEncoding, compression: OTLPCompression,
        timeout: Duration = .seconds(10)
    ) -> [(name: String, value: String)] {
        let reserved = [
            "content-type", "content-encoding", "user-agent", "content-length", "host", "te", "grpc-encoding",
            "grpc-timeout",
        ]
        var fixed = [
            ("Content-Type", encoding.contentType),
            ("User-Agent", "resolvekit-linux/\(TelemetryResource.sdkVersion)"),
        ]
        if encoding == .grpc {
            fixed.append(("TE", "trailers"))
            fixed.append(("grpc-timeout", grpcTimeout(timeout)))
            if compression == .gzip { fixed.append(("grpc-encoding", "gzip")) }
        } else if compression == .gzip {
            fixed.append(("Content-Encoding", "gzip"))
        }
        return fixed + configured.filter { !reserved.contains($0.name.lowercased()) }
    }

    /// A deadline as gRPC writes it: at most eight digits and a unit, here whole milliseconds (`m`), or seconds
    /// (`S`) past 27 hours; never zero, which a server would read as already passed.
    static func grpcTimeout(_ timeout: Duration) -> String {
        let milliseconds = max(
            1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        if milliseconds <= 99_999_999 { return "\(milliseconds)m" }
        return "\(min(milliseconds / 1000, 99_999_999))S"
    }

    /// The body that carries `message`: compressed when asked, and over gRPC in its length-prefixed frame (a flag
    /// byte saying whether it is compressed, then its length as four big-endian bytes).
    static func body(_ message: [UInt8], _ encoding: OTLPEncoding, _ compression: OTLPCompression) -> [UInt8] {
        let compressed = compression == .gzip ? Gzip.compress(message) : message
        guard encoding == .grpc else { return compressed }
        let length = UInt32(truncatingIfNeeded: compressed.count)
        var framed: [UInt8] = [compression == .gzip ? 1 : 0]
        framed.reserveCapacity(5 + compressed.count)
        for shift in [24, 16, 8, 0] { framed.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        framed += compressed
        return framed
    }

    /// The message of a gRPC answer's body: what follows the first frame's prefix when it is not compressed (OTLP
    /// answers are never asked to be); empty otherwise.
    static func unframed(_ body: [UInt8]) -> [UInt8] {
        guard body.count >= 5, body[0] == 0 else { return [] }
        let length = body[1...4].reduce(0) { $0 << 8 | Int($1) }
        return Array(body.dropFirst(5).prefix(length))
    }

    /// The request for an export of `body` (already built with ``body(_:_:_:)``) to `export`.
    static func request(
        _ body: [UInt8], to export: TelemetryConfiguration.Export, method: Method, urgently: Bool
    ) -> OTLPRequest {
        var request = OTLPRequest(
            url: url(export.endpoint, export.encoding, method),
            headers: headers(
                export.headers, encoding: export.encoding, compression: export.compression, timeout: export.timeout),
            body: body, timeout: export.timeout, isGRPC: export.encoding == .grpc)
        request.isUrgent = urgently
        return request
    }
}
