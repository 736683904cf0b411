import Foundation
import ResolveKit
import ResolveKitCLI
import Testing

@testable import rk_service

/// `--state`, `--state-prefix` and `--replica-name`, and the answer a replica gives for a user another one serves.
struct ServiceReplicaOptionsTests {
    static let environment = ["RESOLVEKIT_API_KEY": "rk_dev"]

    @Test func aRedisURLKeepsTheStateInRedisUnderThePrefixWithTheReplicasOwnSharedSession() throws {
        let options = try ServiceOptions.parse([
            "--base-url", "http://127.0.0.1:9", "--state", "redis://rk:s3cret@127.0.0.1:6379/2", "--state-prefix",
            "rk:ops", "--replica-name", "10.0.0.7:8080",
        ])
        let settings = try ServiceSettings.resolve(options, environment: Self.environment)
        #expect(settings.stateLocation == .redis(URL(string: "redis://rk:s3cret@127.0.0.1:6379/2")!, prefix: "rk:ops"))
        #expect(settings.replicaName == "10.0.0.7:8080")
        #expect(settings.stateSecrets.contains("s3cret"))
        #expect(RequestHandler.sharedKey(settings) == "replica/10.0.0.7:8080")
    }

    @Test func theURLMayComeFromTheEnvironmentAndThePrefixAndNameHaveDefaults() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"])
        var environment = Self.environment
        environment["RESOLVEKIT_STATE_URL"] = "unix:///run/redis/redis.sock?db=1"
        let settings = try ServiceSettings.resolve(options, environment: environment)
        #expect(
            settings.stateLocation == .redis(URL(string: "unix:///run/redis/redis.sock?db=1")!, prefix: "rk:rk-service")
        )
        #expect(settings.replicaName == ReplicaSettings().name)
        #expect(settings.stateSecrets.isEmpty)
    }

    @Test func withoutRedisTheSharedSessionIsTheServices() throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9", "--state-dir", "/tmp/x"])
        let settings = try ServiceSettings.resolve(options, environment: Self.environment)
        #expect(settings.replicaName == nil)
        #expect(RequestHandler.sharedKey(settings) == "")
    }

    @Test(arguments: [
        (["--state", "http://127.0.0.1:6379"], "--state must be a Redis URL"),
        (["--state", "redis://127.0.0.1", "--state-dir", "/tmp/x"], "--state and --state-dir exclude each other"),
        (["--replica-name", "a"], "--state-prefix and --replica-name need --state URL"),
        (["--state", "redis://127.0.0.1", "--state-prefix", "rk:{app}"], "--state-prefix must be non-empty"),
    ])
    func mistakesAreUsageErrorsSayingWhatIsWrong(arguments: [String], message: String) throws {
        let options = try ServiceOptions.parse(["--base-url", "http://127.0.0.1:9"] + arguments)
        do {
            _ = try ServiceSettings.resolve(options, environment: Self.environment)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func aUserAnotherReplicaServesIsAnsweredWithTheOwnerAndWhenToRetry() {
        let owner = KeyOwner(holder: "replica-b#1f2e", leaseRemaining: .milliseconds(4200))
        let error = ResolveKitError(
            .keyOwnedElsewhere, "Replica replica-b owns this user key's session", underlying: owner)
        let response = ServiceResponse.failure(error, id: "7")
        #expect(response.fields["status"] == "error")
        #expect(response.fields["code"] == "key_owned_elsewhere")
        #expect(response.fields["owner"] == "replica-b")
        #expect(response.fields["retry_after_ms"] == 4200)
        #expect(response.fields["error"]?.stringValue?.contains("replica-b") == true)
    }
}
