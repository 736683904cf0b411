import ResolveKitTools

/// A function of this sample's own, registered by hand beside the Linux pack: it waits, reporting progress each
/// second, and stops as soon as the call is cancelled. It shows a long call, progress and cancellation end to end.
struct Countdown: AnyResolveKitFunction {
    static let resolveKitName = "countdown"
    static let resolveKitDescription = "Counts down the given number of seconds, reporting progress each second."
    static let resolveKitRequiresApproval = false
    static let resolveKitTimeoutSeconds: Int? = 120
    static let resolveKitParametersSchema: JSONObject = [
        "type": "object",
        "properties": [
            "seconds": ["type": "integer", "minimum": 1, "maximum": 100, "description": "How long to count."]
        ],
        "required": ["seconds"],
    ]

    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        let seconds = arguments["seconds"]?.intValue ?? 1
        for second in 1...seconds {
            try await Task.sleep(for: .seconds(1))
            context.reportProgress(Double(second), of: Double(seconds), message: "\(second) of \(seconds) seconds")
        }
        return ["counted": .number(Double(seconds))]
    }
}
