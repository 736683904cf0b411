import ResolveKitCore

/// The resource every span and metric is about: this service, named by `OTEL_SERVICE_NAME` and described by
/// `OTEL_RESOURCE_ATTRIBUTES`, with the SDK's own `telemetry.sdk.*` attributes.
public struct TelemetryResource: Sendable, Hashable {
    /// The instrumentation scope's name on every exported span and metric.
    public static let scopeName = "resolvekit-linux"
    /// The SDK version reported in `telemetry.sdk.version` and the scope.
    public static let sdkVersion = ResolveKitVersion.current

    /// The attributes, `service.name` first.
    public private(set) var attributes: [SpanAttribute]

    /// Creates a resource.
    /// - Parameters:
    ///   - serviceName: `service.name`.
    ///   - attributes: Further attributes (a `service.name` among them is replaced by `serviceName`).
    public init(serviceName: String, attributes: [SpanAttribute] = []) {
        var all = [SpanAttribute("service.name", .string(serviceName))]
        for attribute in attributes
        where attribute.key != "service.name" && !all.contains(where: { $0.key == attribute.key }) {
            all.append(attribute)
        }
        for (key, value) in [
            ("telemetry.sdk.name", "resolvekit-linux"), ("telemetry.sdk.language", "swift"),
            ("telemetry.sdk.version", Self.sdkVersion),
        ] where !all.contains(where: { $0.key == key }) {
            all.append(SpanAttribute(key, .string(value)))
        }
        self.attributes = all
    }

    /// `service.name`.
    public var serviceName: String {
        guard case .string(let name) = attributes[0].value else { return "" }
        return name
    }
}
