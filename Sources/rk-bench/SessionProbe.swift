import ResolveKitCore
import Synchronization

/// The function the `sessions` workload calls: records when each call started, by call id, and how often it ran.
struct SessionProbe: AnyResolveKitFunction {
    static let resolveKitName = "session_probe"
    static let resolveKitDescription = "Records when it ran, for rk-bench."
    static let resolveKitRequiresApproval = false
    static let resolveKitParametersSchema: JSONObject = ["type": "object"]

    private static let runs = Mutex<[String: (count: Int, firstStart: ContinuousClock.Instant)]>([:])

    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        let now = ContinuousClock.now
        runs.withLock { runs in
            let key = context.callID?.rawValue ?? ""
            let previous = runs[key]
            runs[key] = ((previous?.count ?? 0) + 1, previous?.firstStart ?? now)
        }
        return "ok"
    }

    /// Forgets every call: each run of a series (`--runs`) counts its own, though the rotation's injected calls have
    /// the same ids in every run.
    static func reset() {
        runs.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// When the call first started, and how many times it ran (0 when never).
    static func record(_ callID: String) -> (count: Int, firstStart: ContinuousClock.Instant?) {
        runs.withLock { runs in runs[callID].map { ($0.count, $0.firstStart) } ?? (0, nil) }
    }
}
