import Foundation
import ResolveKitCore

/// How a gRPC call ended, from its `grpc-status`, `grpc-message` and `grpc-status-details-bin` trailers (or headers,
/// in a trailers-only answer).
public struct GRPCStatus: Sendable, Hashable, CustomStringConvertible {
    /// The status code: 0 is `OK`, 14 `UNAVAILABLE`, … (gRPC's `status.proto`).
    public var code: Int
    /// The server's explanation, percent-decoded.
    public var message: String
    /// The wait a `google.rpc.RetryInfo` in the details asks for before trying again, when there is one.
    public var retryDelay: Duration?

    /// Creates a status.
    public init(code: Int, message: String = "", retryDelay: Duration? = nil) {
        self.code = code
        self.message = message
        self.retryDelay = retryDelay
    }

    /// Reads the trailers' values; `nil` when `status` is missing or not a number.
    /// - Parameters:
    ///   - status: `grpc-status`.
    ///   - message: `grpc-message`, percent-encoded as gRPC sends it.
    ///   - details: `grpc-status-details-bin`: a base64 `google.rpc.Status`, read for its `RetryInfo`.
    public init?(status: String?, message: String?, details: String?) {
        guard let status, let code = Int(status.trimmingCharacters(in: .whitespaces)), code >= 0 else { return nil }
        self.code = code
        self.message = message.flatMap { $0.removingPercentEncoding ?? $0 } ?? ""
        retryDelay = details.flatMap(Self.retryDelay(inDetails:))
    }

    /// `OK`, `UNAVAILABLE`, …; the number for a code gRPC does not define.
    public var name: String {
        Self.names.indices.contains(code) ? Self.names[code] : String(code)
    }

    /// `UNAVAILABLE (14): message`.
    public var description: String {
        "\(name) (\(code))" + (message.isEmpty ? "" : ": \(message)")
    }

    /// Whether OTLP's specification asks for the export to be tried again: the transient codes, and
    /// `RESOURCE_EXHAUSTED` when the server says when (a `RetryInfo`).
    public var isRetryable: Bool {
        switch code {
        case 1, 4, 10, 11, 14, 15: true  // CANCELLED, DEADLINE_EXCEEDED, ABORTED, OUT_OF_RANGE, UNAVAILABLE, DATA_LOSS
        case 8: retryDelay != nil  // RESOURCE_EXHAUSTED
        default: false
        }
    }

    private static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
        "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The `retry_delay` of the first `google.rpc.RetryInfo` among a `google.rpc.Status`'s `details` (field 3, each
    /// an `Any`: `type_url` 1, `value` 2; `RetryInfo.retry_delay` is field 1, a `Duration` of seconds 1, nanos 2).
    static func retryDelay(inDetails base64: String) -> Duration? {
        var padded = base64.trimmingCharacters(in: .whitespaces)
        // gRPC sends the value unpadded.
        while padded.count % 4 != 0 { padded += "=" }
        guard let data = Data(base64Encoded: padded), let status = ProtobufMessage([UInt8](data)[...]) else {
            return nil
        }
        for detail in status.messages(3) where detail.string(1)?.hasSuffix("google.rpc.RetryInfo") == true {
            guard let info = detail.message(2), let delay = info.message(1) else { return nil }
            let seconds = Int64(bitPattern: delay.integer(1) ?? 0)
            let nanoseconds = Int64(bitPattern: delay.integer(2) ?? 0)
            return .seconds(max(0, seconds)) + .nanoseconds(max(0, nanoseconds))
        }
        return nil
    }
}
