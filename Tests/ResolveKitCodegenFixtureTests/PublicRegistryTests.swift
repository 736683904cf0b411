import ResolveKitCodegenPublicFixtures
import ResolveKitCore
import Testing

/// A registry generated `public` (the target's `.resolvekit.json` says so) is usable from another target.
struct PublicRegistryTests {
    @Test func anotherTargetRegistersTheGeneratedFunctionsAndCallsThem() async throws {
        let registry = try ResolveKitRegistry(functions: ResolveKitCodegenPublicFixtures.ResolveKitAutoRegistry.functions)
        #expect(registry.functionNames == ["set_thermostat"])
        let function = try #require(registry.function(named: "set_thermostat"))
        let result = try await function.invoke(
            arguments: ["room": "kitchen", "celsius": 21], context: ResolveKitFunctionContext(sessionID: "s", requestID: "r"))
        #expect(result == "kitchen set to 21 °C")
    }
}
