import Foundation

/// What the session machine needs of the configuration and the registry: timings, limits, and which functions
/// exist and need approval. A value, so the machine is made and tested without a runtime.
struct SessionSettings: Sendable {
    var batchWindow: Duration = .milliseconds(250)
    var reconnectAttemptBudget: Int?
    var connectTimeout: Duration? = .seconds(30)
    var turnQueueLimit = 64
    var turnWatchdog: Duration = .seconds(60)
    var streamIdleTimeout: Duration = .seconds(45)
    var resultDeliveryMargin: Duration = .seconds(1)
    /// The backend, for messages.
    var baseURL = "http://backend"
    /// Every registered function, and whether its local registration needs approval (§10.1).
    var functions: [String: Bool] = [:]
    /// Whether the state store applies each write before the driver performs the next action (a state folder,
    /// memory): a result's post then follows its journal write at once instead of waiting for the write's
    /// completion, as a shared store's writes must.
    var writesApplyAtOnce = false
    /// Whether the journal's store keeps every record it was given until it is replaced (a folder's append-only
    /// file), so the machine has it compacted now and then; memory and Redis delete what the journal forgets.
    var journalKeepsEveryRecord = true
    /// Whether the run only posts the results its journal holds and then ends: no event stream, no messages, no
    /// new calls. A host runs one for a key whose last process stopped with results undelivered, before the key's
    /// user comes back (the host does not know the key, only its folder, so it must run nothing for it).
    var deliversOnly = false

    /// Settings from a runtime's configuration and registry.
    init(_ configuration: ResolveKitConfiguration, registry: ResolveKitRegistry) {
        batchWindow = configuration.batchWindow
        reconnectAttemptBudget = configuration.reconnectAttemptBudget
        connectTimeout = configuration.connectTimeout
        turnQueueLimit = configuration.turnQueueLimit
        turnWatchdog = configuration.turnWatchdog
        streamIdleTimeout = configuration.streamIdleTimeout
        resultDeliveryMargin = configuration.resultDeliveryMargin
        deliversOnly = configuration.deliversOnly
        baseURL = configuration.baseURL.absoluteString
        for entry in registry.entries { functions[entry.name] = entry.function.resolveKitRequiresApproval }
    }

    /// Settings for a machine under test.
    init(functions: [String: Bool] = [:]) {
        self.functions = functions
    }

    /// How long a message waits for a session to open, or an `ask` for one.
    var sessionWait: Duration { connectTimeout ?? .seconds(30) }

    /// When a call must have its result: the server's deadline less a margin for posting it (a tenth of the
    /// timeout at most).
    func executionDeadline(_ call: PendingToolCall) -> Duration {
        call.serverDeadline - min(resultDeliveryMargin, .seconds(call.timeoutSeconds) / 10)
    }
}
