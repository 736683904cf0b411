public import ResolveKitCore

// @ResolveKit(name: "set_lights", timeout: 60, requiresApproval: true)
/// Turn the lights in a room on or off.
///
/// Rooms are matched by name.
/// - Parameters:
///   - room: Room name as the user says it, e.g. "kitchen".
///   - on: Whether the lights should be on.
///   - level: Brightness from 0 to 100.
///     - Minimum: 0
///     - Maximum: 100
///   - mode: The colour temperature.
public struct SetLights: ResolveKitFunction {
    /// A colour temperature.
    public enum Mode: String, Codable, Sendable {
        case warm
        case cold = "cool"
    }

    /// Creates the function.
    public init() {}

    /// Switches the lights and says what it did.
    public func perform(room: String, on: Bool, level: Int? = nil, mode: Mode = .warm) async throws -> String {
        "\(room): \(on ? "on" : "off") at \(level.map(String.init) ?? "default") (\(mode.rawValue))"
    }
}

/* A block comment with a brace { and a fake annotation @ResolveKit(name: "nope") /* nested */ } */
let noiseString = "a string with } and // @ResolveKit(name: \"nope\") inside"
let noiseRaw = #"raw "quoted" \(not interpolation) }"#
let noiseMultiline = """
    struct NotAType { func perform() }
    \(noiseString.count) } {
    """

#if false
    let unusedBranch = 1
#endif
