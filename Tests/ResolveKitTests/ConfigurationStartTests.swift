import Foundation
import ResolveKitCore
import ResolveKitTesting
import Testing

@testable import ResolveKit

/// A configuration that cannot work fails at once, naming the setting; the automatic state folder belongs to one
/// program, backend and key.
@Suite(.timeLimit(.minutes(1)))
struct ConfigurationStartTests {
    static let noVariable = ProcessInfo.processInfo.environment["RESOLVEKIT_BASE_URL"] == nil

    @Test(
        .enabled(if: noVariable, "RESOLVEKIT_BASE_URL is set in this test's environment"))
    func aRuntimeWithoutABaseURLFailsToStartAtOnceNamingTheVariableAndTheField() async {
        let runtime = ResolveKitRuntime(
            configuration: ResolveKitConfiguration(
                apiKeyProvider: { "rk_dev" }, stateLocation: .inMemory, clock: ResolveKitClock(ManualClock())))
        do throws(ResolveKitError) {
            try await runtime.start()
            Issue.record("a runtime without a base URL started")
        } catch {
            #expect(error.code == .missingBaseURL)
            #expect(!error.isRetryable)
            #expect(error.message.contains("RESOLVEKIT_BASE_URL"))
            #expect(error.message.contains("baseURL"))
            #expect(runtime.lastError?.code == .missingBaseURL)
        }
        // At once, not after a connect budget: the runtime's clock never moves, so a start that waited would not
        // have ended (check-readme times the same failure in a process of its own: under a second).
        await runtime.stop()
    }

    @Test func theBaseURLComesFromTheConfigurationElseTheEnvironmentAndNeverFromADefault() throws {
        let unset = ResolveKitConfiguration(apiKeyProvider: { nil })
        #expect(unset.configuredBaseURL == nil)
        let fromEnvironment = try unset.checkedForStart(environment: ["RESOLVEKIT_BASE_URL": "https://a.example/agent"])
        #expect(fromEnvironment.baseURL.absoluteString == "https://a.example/agent")
        let given = ResolveKitConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!, apiKeyProvider: { nil })
        let checked = try given.checkedForStart(environment: ["RESOLVEKIT_BASE_URL": "https://a.example"])
        #expect(checked.baseURL.absoluteString == "http://127.0.0.1:8080")
    }

    @Test(arguments: [
        (nil, [:], ResolveKitError.Code.missingBaseURL, "No backend base URL: set RESOLVEKIT_BASE_URL"),
        (nil, ["RESOLVEKIT_BASE_URL": "  "], .missingBaseURL, "or pass baseURL: to ResolveKitConfiguration"),
        (
            nil, ["RESOLVEKIT_BASE_URL": "agent.example.com"], .invalidConfiguration,
            "RESOLVEKIT_BASE_URL 'agent.example.com' is not an http:// or https:// URL"
        ),
        (
            "ftp://agent.example.com", [:], .invalidConfiguration,
            "The configuration's baseURL 'ftp://agent.example.com' is not an http:// or https:// URL"
        ),
    ] as [(String?, [String: String], ResolveKitError.Code, String)])
    func aBaseURLThatCannotWorkIsNamed(
        given: String?, environment: [String: String], code: ResolveKitError.Code, text: String
    ) {
        let configuration = ResolveKitConfiguration(baseURL: given.flatMap(URL.init(string:)), apiKeyProvider: { nil })
        #expect {
            try configuration.checkedForStart(environment: environment)
        } throws: { error in
            guard let error = error as? ResolveKitError else { return false }
            return error.code == code && error.message.contains(text)
        }
    }

    @Test func theAutomaticFolderIsPerProgramBackendAndKeyAndNeverHoldsTheKey() {
        let url = URL(string: "https://agent.example.com")
        let chat = ResolveKitConfiguration.automaticFolder(
            root: "/state/resolvekit", program: "rk-chat", baseURL: url, apiKey: "rk_secret_1")
        let digest = String(SHA256.hexDigest("rk_secret_1").prefix(12))
        #expect(chat == "/state/resolvekit/rk-chat/agent.example.com-\(digest)")
        #expect(!chat.contains("rk_secret_1"))
        let service = ResolveKitConfiguration.automaticFolder(
            root: "/state/resolvekit", program: "rk-service", baseURL: url, apiKey: "rk_secret_1")
        let otherKey = ResolveKitConfiguration.automaticFolder(
            root: "/state/resolvekit", program: "rk-chat", baseURL: url, apiKey: "rk_secret_2")
        let otherPort = ResolveKitConfiguration.automaticFolder(
            root: "/state/resolvekit", program: "rk-chat", baseURL: URL(string: "http://127.0.0.1:8080"),
            apiKey: "rk_secret_1")
        #expect(Set([chat, service, otherKey, otherPort]).count == 4)
        #expect(otherPort == "/state/resolvekit/rk-chat/127.0.0.1_8080-\(digest)")
        #expect(
            ResolveKitConfiguration.automaticFolder(root: "/s", program: "../x", baseURL: nil, apiKey: nil)
                == "/s/.._x/default-no-key")
    }

    @Test func theProgramIsTheExecutablesNameUnlessSet() {
        let configuration = ResolveKitConfiguration(
            baseURL: URL(string: "https://agent.example.com")!, apiKeyProvider: { "k" })
        #expect(configuration.programName == ProcessInfo.processInfo.processName)
        var named = configuration
        named.programName = "my-service"
        #expect(named.resolvedStateDirectory?.hasSuffix("/my-service/agent.example.com-"
            + String(SHA256.hexDigest("k").prefix(12))) == true)
        #expect(named.resolvedStateDirectory?.hasPrefix(ResolveKitDefaults.stateRoot + "/") == true)
    }
}
