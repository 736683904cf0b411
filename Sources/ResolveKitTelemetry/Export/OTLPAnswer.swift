import ResolveKitCore

/// What an OTLP endpoint's answer body says, in either encoding (a JSON body begins with `{`, a protobuf one never
/// does): a partial success in a 2xx `Export…ServiceResponse`, or a refusal's message in a `google.rpc.Status`.
enum OTLPAnswer {
    /// What an answer means for the export.
    enum Verdict: Equatable {
        /// Taken; the body is the `Export…ServiceResponse` (unframed, over gRPC).
        case accepted(body: [UInt8])
        /// To be tried again, after the wait the endpoint asked for (if it did); `status` names why, for the log.
        case retry(after: Duration?, status: String)
        /// Refused for good.
        case refused(status: String, message: String)
    }

    /// The verdict on `response`: over HTTP 2xx is taken, 429, 502, 503 and 504 are tried again (after
    /// `Retry-After`), anything else is refused; over gRPC (HTTP 200) the `grpc-status` decides: `OK` is taken,
    /// the codes OTLP calls transient are tried again (after a `RetryInfo`'s delay), others are refused.
    /// - Parameter nowUnixSeconds: The current time, to read a `Retry-After` date.
    static func verdict(_ response: OTLPResponse, isGRPC: Bool, nowUnixSeconds: Int64) -> Verdict {
        let status = String(response.status)
        switch response.status {
        case 200..<300 where !isGRPC:
            return .accepted(body: response.body)
        case 200 where isGRPC:
            guard let grpc = response.grpcStatus else {
                return .refused(status: "200", message: "the answer has no grpc-status: not a gRPC endpoint?")
            }
            if grpc.code == 0 { return .accepted(body: OTLPCall.unframed(response.body)) }
            if grpc.isRetryable { return .retry(after: grpc.retryDelay, status: "\(grpc.name) (\(grpc.code))") }
            return .refused(status: "\(grpc.name) (\(grpc.code))", message: grpc.message)
        case 429, 502, 503, 504:
            return .retry(after: RetryAfter.delay(response.retryAfter, nowUnixSeconds: nowUnixSeconds), status: status)
        default:
            return .refused(status: status, message: refusalMessage(in: response.body))
        }
    }

    /// A partial success: how many items the endpoint refused for good (field 1 of `ExportTracePartialSuccess` and
    /// `ExportMetricsPartialSuccess`: `rejectedSpans`, `rejectedDataPoints`), and why.
    struct PartialSuccess: Equatable {
        var rejected: Int
        var message: String
    }

    /// The partial success a 2xx answer carries; `nil` when it carries none, or neither a count nor a message.
    /// - Parameter countKey: The JSON name of the count (`rejectedSpans`, `rejectedDataPoints`).
    static func partialSuccess(in body: [UInt8], countKey: String) -> PartialSuccess? {
        let found: PartialSuccess
        if body.first == UInt8(ascii: "{") {
            guard let answer = try? JSONValue(parsing: body), let partial = answer["partialSuccess"] else { return nil }
            // A 64-bit integer is a string in OTLP's JSON; a number is taken too.
            let count = partial[countKey].flatMap { $0.stringValue.flatMap { Int($0) } ?? $0.intValue } ?? 0
            found = PartialSuccess(rejected: count, message: partial["errorMessage"]?.stringValue ?? "")
        } else {
            guard let answer = ProtobufMessage(body[...]), let partial = answer.message(1) else { return nil }
            found = PartialSuccess(
                rejected: Int(truncatingIfNeeded: Int64(bitPattern: partial.integer(1) ?? 0)),
                message: partial.string(2) ?? "")
        }
        return found.rejected > 0 || !found.message.isEmpty ? found : nil
    }

    /// A refusal's explanation: the `message` of the `google.rpc.Status` OTLP endpoints answer with, or the body's
    /// first 512 bytes as text when it is not one (a proxy's page).
    static func refusalMessage(in body: [UInt8]) -> String {
        if body.first == UInt8(ascii: "{") {
            if let message = (try? JSONValue(parsing: body))?["message"]?.stringValue { return message }
        } else if let status = ProtobufMessage(body[...]), let message = status.string(2), !message.isEmpty {
            return message
        }
        return String(decoding: body.prefix(512), as: UTF8.self)
    }
}
