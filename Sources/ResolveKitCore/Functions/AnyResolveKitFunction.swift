/// A tool the agent can call: its name, description, parameter schema, policy, and how to invoke it.
///
/// Write one by hand for full control (as in the reference iOS SDK), or conform a struct to
/// ``ResolveKitFunction`` and let `rk-codegen` generate this conformance from its `perform(...)` method.
public protocol AnyResolveKitFunction: Sendable {
    /// The name the model calls the tool by; `[A-Za-z0-9_-]{1,64}`, unique in the registry.
    static var resolveKitName: String { get }
    /// A plain-English sentence the model uses to decide when to call the tool (at most 1000 characters).
    static var resolveKitDescription: String { get }
    /// The JSON Schema of the arguments object.
    static var resolveKitParametersSchema: JSONObject { get }
    /// The JSON Schema of the result, when it is an object of a known shape (MCP's `outputSchema`); `rk-codegen`
    /// writes it when `perform` returns a `Codable` struct of the scanned sources. `nil` by default.
    static var resolveKitOutputSchema: JSONObject? { get }
    /// Whether a person or policy must approve each call before it runs. Defaults to `true`.
    static var resolveKitRequiresApproval: Bool { get }
    /// Seconds the backend waits for the result, approval time included (1–300); `nil` means the backend's
    /// default of 30.
    static var resolveKitTimeoutSeconds: Int? { get }

    /// Runs the tool.
    /// - Parameters:
    ///   - arguments: the model's arguments, already checked against ``resolveKitParametersSchema``.
    ///   - context: the session, turn and call this invocation belongs to, its deadline and a logger.
    /// - Returns: the result the model receives (a string is passed verbatim, anything else as JSON text).
    /// - Throws: ``ResolveKitFunctionError`` for bad input; any other error becomes an error result with its
    ///   description.
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue
}

extension AnyResolveKitFunction {
    /// Calls need approval unless the function says otherwise.
    public static var resolveKitRequiresApproval: Bool { true }
    /// The backend's default timeout applies.
    public static var resolveKitTimeoutSeconds: Int? { nil }
    /// No output schema.
    public static var resolveKitOutputSchema: JSONObject? { nil }
}

/// The authoring protocol: a struct with exactly one `perform(...) async throws -> T` method.
///
/// Annotate it with `// @ResolveKit(name: …)` and `rk-codegen` (or its build plugin) generates the
/// ``AnyResolveKitFunction`` conformance: the JSON Schema from the parameter types and doc comment, and an `invoke`
/// that coerces every argument and reports each missing or invalid one by name.
public protocol ResolveKitFunction: Sendable {
    /// Creates the function value that `perform` is called on.
    init()
}

/// A named group of functions for the platforms it supports, registered together.
public protocol ResolveKitFunctionPack: Sendable {
    /// The pack's name, sent as `pack_name` with each of its functions.
    static var packName: String { get }
    /// The platforms whose sessions may call the pack's functions (`availability.platforms`).
    static var supportedPlatforms: [ResolveKitPlatform] { get }
    /// The functions in the pack.
    static var functions: [any AnyResolveKitFunction.Type] { get }
}

/// A client platform as the backend's eligibility check names it (`client.platform`).
public enum ResolveKitPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    /// iOS and iPadOS.
    case ios
    /// macOS.
    case macos
    /// Linux.
    case linux
    /// Android.
    case android
}
