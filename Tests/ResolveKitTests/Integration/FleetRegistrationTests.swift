import Foundation
import ResolveKit
import ResolveKitTesting
import Testing

/// Registration replaces the app's whole function set, so a host of a fleet that registers a different set would
/// silently remove the others' functions: it is blocked at start instead, naming them, unless told to replace.
@Suite(.timeLimit(.minutes(1)))
struct FleetRegistrationTests {
    @Test func aHostRegisteringADifferentSetIsBlockedNamingTheFunctionsItWouldRemove() async throws {
        try await RuntimeHarness.run { harness in
            let full = harness.configuration()
            try await harness.withRuntime(full) { _ in }
            var partial = harness.configuration()
            partial.functions = [TestTools.GetTime.self, TestTools.Boom.self]
            let runtime = ResolveKitRuntime(configuration: partial)
            let error = await #expect(throws: ResolveKitError.self) { try await runtime.start() }
            #expect(error?.code == .functionSetConflict)
            #expect(error?.message.contains("would deactivate 3") == true)
            #expect(error?.message.contains("lock_door, set_lights, slow") == true)
            #expect(runtime.connectionState == .blocked(error!))
            #expect(harness.backend.counters.functionRegistrations == 1)
            #expect(harness.backend.sessionIDs.count == 1)
            await runtime.stop()
        }
    }

    @Test func aHostAllowedToReplaceRegistersItsSetAndTheSameSetAgainIsNoConflict() async throws {
        try await RuntimeHarness.run { harness in
            try await harness.withRuntime(harness.configuration()) { _ in }
            try await harness.withRuntime(harness.configuration()) { _ in }
            #expect(harness.backend.counters.functionRegistrations == 2)
            var partial = harness.configuration()
            partial.functions = [TestTools.GetTime.self]
            partial.replacesOtherFunctions = true
            try await harness.withRuntime(partial) { runtime in
                let answer = try await runtime.ask("what time is it", timeout: .seconds(10))
                #expect(answer.toolCalls.first?.status == .completed)
            }
            #expect(harness.backend.counters.functionRegistrations == 3)
        }
    }

    @Test(arguments: [("1", true), ("true", true), ("0", false), ("", false)])
    func theReplaceCanBeAllowedFromTheEnvironment(value: String, replaces: Bool) {
        #expect(ResolveKitDefaults.environmentReplacesFunctions(["RESOLVEKIT_REPLACE_FUNCTIONS": value]) == replaces)
        #expect(!ResolveKitDefaults.environmentReplacesFunctions([:]))
    }
}
