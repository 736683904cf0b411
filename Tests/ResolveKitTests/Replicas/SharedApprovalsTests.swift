import Foundation
import ResolveKit
import ResolveKitRedis
import ResolveKitTesting
import Testing

/// With Redis state, remembered approvals are the app's, shared by every replica: remembered through one, they
/// approve calls on another at once; revoked through one, they are gone everywhere.
@Suite(
    .serialized,
    .enabled(if: ExternalProgram.redisServer.shouldRun, Comment(rawValue: ExternalProgram.redisServer.skipNote)),
    .timeLimit(.minutes(1)))
struct SharedApprovalsTests {
    @Test func aDecisionRememberedThroughOneReplicaApprovesCallsOnAnotherAndARevokeEndsItEverywhere() async throws {
        try await ReplicaHarness.run { harness in
            let hostA = ResolveKitHost(
                configuration: harness.configuration("replica-a", approver: ToolApprovals.Deferred()),
                options: .init(idleTimeout: nil))
            let hostB = ResolveKitHost(
                configuration: harness.configuration("replica-b", approver: ToolApprovals.Deferred()),
                options: .init(idleTimeout: nil))
            let remembered = try await hostA.approvals.remember(allow: "set_lights", scope: .always, by: .host("ops"))
            #expect(await hostB.approvals.remembered.map(\.id) == [remembered.id])

            let answer = try await hostB.ask("lights", as: "carol", timeout: .seconds(20))
            #expect(answer.toolCalls.first?.status == .completed)
            #expect(answer.toolCalls.first?.decision == .approved)

            try await hostB.approvals.revoke(id: remembered.id)
            #expect(await hostA.approvals.remembered.isEmpty)
            let stored = try await harness.admin.send(RedisCommand("HLEN", "{\(harness.prefix)}:approvals"))
            #expect(stored.integer == 0)
            let again = await #expect(throws: ResolveKitError.self) {
                try await hostA.approvals.revoke(id: remembered.id)
            }
            #expect(again?.code == .approvalNotPending)
            await hostA.drain(timeout: .seconds(2))
            await hostB.drain(timeout: .seconds(2))
        }
    }
}
