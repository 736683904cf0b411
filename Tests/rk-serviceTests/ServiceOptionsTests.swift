import ResolveKit
import ResolveKitCLI
import Testing

@testable import rk_service

struct ServiceOptionsTests {
    @Test func repeatedAllowedRootsAreKeptInOrder() throws {
        let options = try ServiceOptions.parse(["--allowed-root", "/var/log", "--allowed-root=/srv/app"])
        #expect(options.allowedRoots == ["/var/log", "/srv/app"])
    }

    @Test func aPlainAPIKeyFlagIsRefusedWithAHintAtTheSaferWays() {
        #expect(throws: ServiceOptions.UsageError.self) { try ServiceOptions.parse(["--api-key", "rk_secret"]) }
        do {
            _ = try ServiceOptions.parse(["--api-key", "rk_secret"])
        } catch {
            #expect(error.message.contains("--api-key-file"))
            #expect(!error.message.contains("rk_secret"))
        }
    }

    @Test(arguments: [
        (["--socket"], "--socket needs a value"),
        (["--drain-timeout", "soon"], "--drain-timeout expects a whole number in 0...3600, got 'soon'"),
        (["--allowed-root", "relative/dir"], "--allowed-root must be absolute, got 'relative/dir'"),
        (["--verbose"], "unknown option '--verbose'"),
    ])
    func mistakesAreReportedWithTheirReason(arguments: [String], message: String) {
        #expect(throws: ServiceOptions.UsageError(message: message)) { try ServiceOptions.parse(arguments) }
    }

    @Test func settingsTakeTheKeyFromTheEnvironmentAndDefaultToDenyingApprovals() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"])
        let settings = try ServiceSettings.resolve(options, environment: ["RESOLVEKIT_API_KEY": " rk_dev \n"])
        #expect(settings.apiKey == "rk_dev")
        #expect(settings.policy.defaultRule == .deny)
        #expect(settings.policy.rules.isEmpty)
        #expect(settings.stateLocation == .automatic)
    }

    /// A lost turn is declared after two watchdog periods; a service that answers within a shorter `--turn-timeout`
    /// can shorten them.
    @Test func theTurnWatchdogReachesTheRuntimesConfiguration() throws {
        let environment = ["RESOLVEKIT_API_KEY": "rk_dev"]
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--turn-watchdog", "10"])
        let settings = try ServiceSettings.resolve(options, environment: environment)
        let configured = Service(settings: settings, environment: [:]).makeConfiguration(logger: .disabled)
        #expect(configured.turnWatchdog == .seconds(10))
        let plain = try ServiceSettings.resolve(
            try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"]), environment: environment)
        let unchanged = Service(settings: plain, environment: [:]).makeConfiguration(logger: .disabled)
        #expect(unchanged.turnWatchdog == .seconds(60))
    }

    /// `--connect-attempts N` makes N retries: no time budget cuts them short (the default five's backoff alone
    /// is about 31 s, beyond the library's 30 s connect timeout).
    @Test func theConnectAttemptsAloneBoundTheStart() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--connect-attempts", "8"])
        let settings = try ServiceSettings.resolve(options, environment: ["RESOLVEKIT_API_KEY": "rk_dev"])
        let configured = Service(settings: settings, environment: [:]).makeConfiguration(logger: .disabled)
        #expect(configured.reconnectAttemptBudget == 8)
        #expect(configured.connectTimeout == nil)
    }

    @Test func settingsUseSystemdsStateDirectoryWhenNoneIsGiven() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"])
        let settings = try ServiceSettings.resolve(
            options, environment: ["RESOLVEKIT_API_KEY": "rk_dev", "STATE_DIRECTORY": "/var/lib/rk-service"])
        #expect(settings.stateLocation == .directory("/var/lib/rk-service"))
    }

    @Test func aMissingKeyOrBaseURLIsAUsageError() throws {
        let withURL = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"])
        #expect(throws: ServiceOptions.UsageError.self) { try ServiceSettings.resolve(withURL, environment: [:]) }
        #expect(throws: ServiceOptions.UsageError.self) {
            try ServiceSettings.resolve(ServiceOptions(), environment: ["RESOLVEKIT_API_KEY": "rk_dev"])
        }
    }

    @Test func aMetricsAddressOrTelemetryVariableThatCannotBeUsedIsAUsageErrorNamingIt() throws {
        let environment = ["RESOLVEKIT_API_KEY": "rk_dev"]
        let listening = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--metrics-listen", "[::1]:9464"])
        #expect(try ServiceSettings.resolve(listening, environment: environment).metricsListen == "[::1]:9464")
        let named = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--metrics-listen", "localhost:9464"])
        #expect {
            try ServiceSettings.resolve(named, environment: environment)
        } throws: { error in
            "\(error)".contains("--metrics-listen: \"localhost:9464\" is not host:port with a numeric host")
        }
        let plain = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"])
        #expect {
            try ServiceSettings.resolve(
                plain, environment: environment.merging(["OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://collector"]) { $1 })
        } throws: { error in
            "\(error)".contains("OTEL_EXPORTER_OTLP_ENDPOINT")
        }
    }

    @Test func thePolicyFileIsReadWithItsRules() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--policy", "p.json"])
        let settings = try ServiceSettings.resolve(options, environment: ["RESOLVEKIT_API_KEY": "rk_dev"]) { path in
            #expect(path == "p.json")
            return Array(#"{"default": "allow", "functions": {"read_log_tail": "deny"}}"#.utf8)
        }
        #expect(settings.policy.rule(for: "read_log_tail") == .deny)
        #expect(settings.policy.rule(for: "get_local_time") == .allow)
    }
}
