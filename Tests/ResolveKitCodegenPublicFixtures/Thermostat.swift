public import ResolveKitCore

// @ResolveKit(name: "set_thermostat", timeout: 60, requiresApproval: true)
/// Set a room's thermostat.
/// - Parameters:
///   - room: The room, e.g. "kitchen".
///   - celsius: The target temperature.
///     - Minimum: 5
///     - Maximum: 30
public struct SetThermostat: ResolveKitFunction {
    /// Creates the function.
    public init() {}

    /// Sets the temperature and says what it did.
    public func perform(room: String, celsius: Int) async throws -> String {
        "\(room) set to \(celsius) °C"
    }
}
