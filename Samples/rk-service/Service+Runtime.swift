import Foundation
import ResolveKit
import ResolveKitSystemFunctions

extension Service {
    /// The runtime's configuration: the system pack, the policy, the state folder, the log.
    func makeConfiguration(logger: ResolveKitLogger) -> ResolveKitConfiguration {
        let apiKey = settings.apiKey
        var dependencies = ResolveKitDependencies()
        dependencies.systemFunctions = SystemFunctionsConfiguration(allowedRoots: settings.allowedRoots)
        // On a socket, calls the policy says to ask about wait for an operator (`rk-approve`) until their deadline.
        var approver = settings.policy
        if settings.socketPath != nil, approver.fallback == nil { approver.fallback = ToolApprovals.Deferred() }
        var configuration = ResolveKitConfiguration(
            baseURL: settings.baseURL,
            apiKeyProvider: { apiKey },
            functionPacks: [SystemFunctionsPack.self],
            dependencies: dependencies,
            approver: approver,
            logger: logger,
            stateLocation: settings.stateLocation,
            appVersion: "rk-service 1.0.0",
            reconnectAttemptBudget: settings.connectAttempts)
        // --connect-attempts bounds the start (each attempt has its request timeout): a time budget beside it would
        // cut the attempts short (the default five retries' backoff alone takes about 31 s).
        configuration.connectTimeout = nil
        configuration.auditTrail = settings.auditLog.map { ApprovalAuditTrail(path: $0) }
        if let period = settings.turnWatchdog { configuration.turnWatchdog = period }
        configuration.network = settings.network
        if let replica = settings.replicaName { configuration.replica = ReplicaSettings(name: replica) }
        return configuration
    }

    /// Logs approval requests and connection changes, mirrors the connection in systemd's `STATUS=`, and returns when
    /// the runtime has failed or is blocked (or `nil` when cancelled).
    static func watch(_ runtime: ResolveKitRuntime, log: ResolveKitLogger, notifier: SystemdNotifier) async
        -> StopReason?
    {
        for await event in runtime.events {
            // Each call's outcome is logged once, with its user, by the request that made it (RequestHandler).
            switch event {
            case .toolBatchAwaitingApproval(let batch):
                log.info(
                    "approval requested",
                    metadata: ["functions": batch.items.map(\.functionName).joined(separator: ",")])
            case .connectionStateChanged(let state):
                notifier.notify("STATUS=Connection \(state)")
                switch state {
                case .failed(let error), .blocked(let error): return .backendLost(error)
                default: break
                }
            case .sessionStarted(let sessionID, let reused):
                log.info("session started", metadata: ["session_id": sessionID, "reused": "\(reused)"])
            case .error(let error):
                log.warning("runtime error", metadata: ["error": error.message, "code": error.code.rawValue])
            default:
                break
            }
        }
        return nil
    }
}
