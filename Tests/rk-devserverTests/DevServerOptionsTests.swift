import ResolveKitTesting
import Testing

@testable import rk_devserver

struct DevServerOptionsTests {
    @Test("Flags set the port, keys, TTLs, cap and id style")
    func parsesFlags() throws {
        let options = try DevServerOptions.parse([
            "--port", "9090", "--api-key", "rk_a", "--api-key", "rk_b", "--session-ttl", "60", "--token-ttl", "30",
            "--stream-cap", "5", "--keep-alive", "2", "--event-ids", "numeric", "--max-tool-rounds", "3",
        ])
        #expect(options.port == 9090)
        #expect(options.configuration.apiKeys == ["rk_a", "rk_b"])
        #expect(options.configuration.sessionTTL == .seconds(60))
        #expect(options.configuration.capabilityTokenTTL == .seconds(30))
        #expect(options.configuration.streamConnectionCap == .seconds(5))
        #expect(options.configuration.keepAliveInterval == .seconds(2))
        #expect(options.configuration.eventIDStyle == .numeric)
        #expect(options.configuration.maxToolRounds == 3)
    }

    @Test("No flags give the defaults: port 8080 and the key rk_dev")
    func defaults() throws {
        let options = try DevServerOptions.parse([])
        #expect(options.port == 8080)
        #expect(options.configuration.apiKeys == ["rk_dev"])
        #expect(!options.showHelp)
    }

    @Test("A fault spec names method, path pattern, number and optional count")
    func faultSpec() throws {
        let spec = try DevServerOptions.endpointSpec("--fail", "POST /v1/sessions/*/tool-results:503:2")
        #expect(spec.endpoint == FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results"))
        #expect(spec.amount == 503)
        #expect(spec.times == 2)
        #expect(try DevServerOptions.endpointSpec("--delay", "* /health:250").times == .max)
    }

    @Test(
        "Mistakes are usage errors with a message",
        arguments: [["--port"], ["--port", "70000"], ["--event-ids", "uuid"], ["--fail", "POST:503"], ["--what"]])
    func usageErrors(arguments: [String]) {
        #expect(throws: DevServerOptions.UsageError.self) { try DevServerOptions.parse(arguments) }
    }
}
