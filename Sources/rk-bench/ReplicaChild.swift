import Foundation
import ResolveKit

/// A replica in a process of its own, for the `replicas` workload to kill: this executable started again with
/// `--replica-child BASE_URL REDIS_URL PREFIX NAME USER`. It asks once as USER through a host whose state is in
/// Redis, and waits (its call's result cannot be posted while the benchmark makes the backend refuse it) until it
/// is killed.
enum ReplicaChild {
    static let flag = "--replica-child"

    static func serve(_ arguments: [String]) async {
        guard arguments.count == 5, let base = URL(string: arguments[0]), let redis = URL(string: arguments[1]) else {
            writeError("usage: rk-bench \(flag) BASE_URL REDIS_URL PREFIX NAME USER")
            exit(64)
        }
        let host = ResolveKitHost(
            configuration: ReplicasWorkload.configuration(
                base: base, redis: redis, prefix: arguments[2], replica: arguments[3]),
            options: .init(idleTimeout: nil))
        do {
            _ = try await host.ask(ReplicasWorkload.question, as: arguments[4], timeout: .seconds(600))
        } catch {
            writeError("replica child: \(error)")
            exit(1)
        }
    }
}
