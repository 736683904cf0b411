import ResolveKitCore

/// What an OTLP endpoint's answer body says, in either encoding (a JSON body begins with `{`, a protobuf one never
/// does): a partial success in a 2xx `Export…ServiceResponse`, or a refusal's message in a `google.rpc.Status`.
enum OTLPAnswer {
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
