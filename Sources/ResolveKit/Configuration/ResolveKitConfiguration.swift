public import Foundation
public import ResolveKitHTTP
public import ResolveKitTelemetry

/// Everything a ``ResolveKitRuntime`` needs, fixed when the runtime is made.
///
/// The first nine members keep the reference iOS SDK's names and meaning; the rest are what a Linux service
/// needs: who approves tool calls, where state lives, timing and limits.
public struct ResolveKitConfiguration: Sendable {
    /// Where state survives restarts.
    public enum StateLocation: Sendable, Hashable {
        /// `$XDG_STATE_HOME/resolvekit/<program>/<host>-<key digest>` (or `~/.local/state/…`): one folder per
        /// program (``ResolveKitConfiguration/programName``), backend and API key, so two programs on one machine
        /// never share a device id, session or journal.
        case automatic
        /// This folder.
        case directory(String)
        /// Memory only: a restart starts a new device id, session and journal.
        case inMemory
        /// Redis at this URL (`redis://[user:password@]host[:port][/db]` or `unix:///path?db=N`), shared by replicas,
        /// every key under `prefix` (one per app, e.g. `rk:my-service`): a replica serves a key only while it holds
        /// the key's lease, and every write carries the lease's fencing token. See ``ReplicaSettings``.
        case redis(URL, prefix: String)
    }

    /// The backend's base URL given in code, including any path prefix (`https://host/agent`); `nil` (the default)
    /// takes `RESOLVEKIT_BASE_URL` from the environment when the runtime starts. With neither, `start()` and `run()`
    /// fail at once with ``ResolveKitError/Code/missingBaseURL``.
    public var configuredBaseURL: URL?
    /// Called at each start; `nil` or empty blocks the runtime with a clear reason. Never logged.
    public var apiKeyProvider: @Sendable () -> String?
    /// A stable device or user id; `nil` → a UUID persisted in the state folder.
    public var deviceIDProvider: @Sendable () -> String?
    /// Context for the model, sent as `llm_context`.
    public var llmContextProvider: @Sendable () -> JSONObject
    /// Names the session may call, intersected with the registered ones; `nil` → all registered.
    public var availableFunctionNamesProvider: (@Sendable () -> [String])?
    /// The chat locale; `nil` → ``preferredLocalesProvider`` or `LC_ALL`/`LC_MESSAGES`/`LANG`.
    public var localeProvider: @Sendable () -> String?
    /// Ordered fallback locales.
    public var preferredLocalesProvider: (@Sendable () -> [String])?
    /// Inline tool functions.
    public var functions: [any AnyResolveKitFunction.Type]
    /// Function packs.
    public var functionPacks: [any ResolveKitFunctionPack.Type]

    /// Values functions read from their context (`context[Key.self]`): allowed directories, handles, the user.
    public var dependencies: ResolveKitDependencies

    /// Who approves calls that need approval. Default: decline everything (nobody was configured to ask).
    public var approver: any ToolApprover
    /// Where every approval decision and call outcome is recorded, hash-chained; none by default.
    public var auditTrail: ApprovalAuditTrail?
    /// Where the library logs; silent by default. Secrets never reach it.
    public var logger: ResolveKitLogger
    /// Where state survives restarts.
    public var stateLocation: StateLocation
    /// The program's name in the ``StateLocation/automatic`` folder; the executable's name by default.
    public var programName: String
    /// The host application's version and build, sent in the client context.
    public var appVersion: String
    /// The host application's build.
    public var appBuild: String?
    /// How long the first call needing approval waits for others to join its batch.
    public var batchWindow: Duration
    /// The most calls running at once.
    public var maxConcurrentCalls: Int
    /// Whether approved calls of a batch run one after another (the reference SDK's order) or in parallel.
    public var runsApprovedCallsSequentially: Bool
    /// How many reconnect attempts in a row before the runtime fails; `nil` (the default) keeps a runtime that
    /// was connected once reconnecting through an outage, bounded by nothing but ``stop()``.
    public var reconnectAttemptBudget: Int?
    /// How long `start()` may take to connect before it fails with ``ResolveKitError/Code/unreachable``;
    /// `nil` waits for ever (an explicit choice).
    public var connectTimeout: Duration?
    /// How many `ask` turns may wait behind the running one; more fail with
    /// ``ResolveKitError/Code/turnQueueFull``.
    public var turnQueueLimit: Int
    /// Total deadline of each REST call.
    public var requestTimeout: Duration
    /// With a turn running and no event or pending call for this long, reconcile through `GET /messages`; a turn
    /// still without progress one more period later is lost (``ResolveKitError/Code/turnLost``).
    public var turnWatchdog: Duration
    /// No byte on the stream (keep-alives count) for this long → reconnect.
    public var streamIdleTimeout: Duration
    /// Calls finish (or are declined) this long before the server's deadline so the result still counts.
    public var resultDeliveryMargin: Duration
    /// How every request and the event stream reach the backend through a company's network: trust (a private
    /// CA), a client certificate for mutual TLS, pinned keys, a proxy, extra headers, an observer of each exchange,
    /// TLS and HTTP tuning. The default uses the system CA store and the environment's `https_proxy`/`no_proxy`.
    public var network: NetworkSettings
    /// Where the runtime's metrics and spans go: turns, calls, requests, the stream, result delivery (the README's
    /// "Operating it" lists them). `nil` (the default) records nothing; a context passed into `ask` still reaches
    /// the backend's requests and the functions. Make one from the `OTEL_*` variables with
    /// ``makeTelemetry(serviceName:environment:)``, run its export loop (`telemetry.run()`) beside the runtime, and
    /// give a host's sessions one telemetry through the host's configuration: they share its registry.
    public var telemetry: Telemetry?
    /// The clock for every timer; a manual clock in tests.
    public var clock: ResolveKitClock
    /// How this process shares keys with other replicas through ``StateLocation/redis(_:prefix:)``: its name, the
    /// lease, the sweep for keys a dead replica left.
    public var replica = ReplicaSettings()
    /// Whether registering may deactivate functions the backend lists that this registry does not have. Registration
    /// is a full replace per app, so a host of a fleet that registered a different set would silently remove the
    /// others' functions: by default (`false`, unless `RESOLVEKIT_REPLACE_FUNCTIONS=1` is in the environment) the
    /// start compares with `GET /v1/functions` first and is blocked with
    /// ``ResolveKitError/Code/functionSetConflict`` naming them. Set it for a deploy that drops a function.
    public var replacesOtherFunctions = ResolveKitDefaults.environmentReplacesFunctions()
    /// The user key of this runtime's state in a shared store: the host's key for each of its runtimes; `nil` for a
    /// runtime of its own (the program's name is its key).
    var stateKey: String?
    /// Whether a run only posts the results its journal holds, then ends (``SessionSettings/deliversOnly``): a
    /// host's recovery of a key folder its last process left with results undelivered.
    var deliversOnly = false

    /// Creates a configuration. The first parameters are the reference SDK's.
    /// - Parameters:
    ///   - baseURL: the backend; `nil` (the default) reads `RESOLVEKIT_BASE_URL` when the runtime starts.
    ///   - programName: the program's name in the automatic state folder; the executable's name by default.
    public init(
        baseURL: URL? = nil,
        apiKeyProvider: @escaping @Sendable () -> String?,
        deviceIDProvider: @escaping @Sendable () -> String? = { nil },
        llmContextProvider: @escaping @Sendable () -> JSONObject = { [:] },
        availableFunctionNamesProvider: (@Sendable () -> [String])? = nil,
        localeProvider: @escaping @Sendable () -> String? = { nil },
        preferredLocalesProvider: (@Sendable () -> [String])? = nil,
        functions: [any AnyResolveKitFunction.Type] = [],
        functionPacks: [any ResolveKitFunctionPack.Type] = [],
        dependencies: ResolveKitDependencies = ResolveKitDependencies(),
        approver: any ToolApprover = DenyAllApprover(reason: "No approver is configured on this host"),
        logger: ResolveKitLogger = .disabled,
        stateLocation: StateLocation = .automatic,
        programName: String? = nil,
        appVersion: String = "1.0.0",
        appBuild: String? = nil,
        batchWindow: Duration = .milliseconds(250),
        maxConcurrentCalls: Int = 8,
        runsApprovedCallsSequentially: Bool = true,
        reconnectAttemptBudget: Int? = nil,
        connectTimeout: Duration? = .seconds(30),
        turnQueueLimit: Int = 64,
        requestTimeout: Duration = .seconds(15),
        turnWatchdog: Duration = .seconds(60),
        streamIdleTimeout: Duration = .seconds(45),
        resultDeliveryMargin: Duration = .seconds(1),
        network: NetworkSettings = NetworkSettings(),
        telemetry: Telemetry? = nil,
        clock: ResolveKitClock = .continuous
    ) {
        self.network = network
        self.telemetry = telemetry
        self.configuredBaseURL = baseURL
        self.apiKeyProvider = apiKeyProvider
        self.deviceIDProvider = deviceIDProvider
        self.llmContextProvider = llmContextProvider
        self.availableFunctionNamesProvider = availableFunctionNamesProvider
        self.localeProvider = localeProvider
        self.preferredLocalesProvider = preferredLocalesProvider
        self.functions = functions
        self.functionPacks = functionPacks
        self.dependencies = dependencies
        self.approver = approver
        self.logger = logger
        self.stateLocation = stateLocation
        self.programName = programName ?? ResolveKitDefaults.programName
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.batchWindow = batchWindow
        self.maxConcurrentCalls = max(1, maxConcurrentCalls)
        self.runsApprovedCallsSequentially = runsApprovedCallsSequentially
        self.reconnectAttemptBudget = reconnectAttemptBudget
        self.connectTimeout = connectTimeout
        self.turnQueueLimit = max(0, turnQueueLimit)
        self.requestTimeout = requestTimeout
        self.turnWatchdog = turnWatchdog
        self.streamIdleTimeout = streamIdleTimeout
        self.resultDeliveryMargin = resultDeliveryMargin
        self.clock = clock
    }

    /// `RESOLVEKIT_BASE_URL` from the environment, when it is set to a URL; there is no other default.
    public static var defaultBaseURL: URL? { ResolveKitDefaults.environmentBaseURL() }

    /// The base URL the runtime connects to: ``configuredBaseURL``, else `RESOLVEKIT_BASE_URL`. Setting it sets
    /// ``configuredBaseURL``. With neither set it reads `unset:RESOLVEKIT_BASE_URL`, which no runtime connects to:
    /// `start()` fails first, naming both (see ``resolvedBaseURL`` to tell).
    public var baseURL: URL {
        get { resolvedBaseURL ?? Self.unsetBaseURL }
        set { configuredBaseURL = newValue }
    }

    /// ``configuredBaseURL``, else `RESOLVEKIT_BASE_URL`; `nil` when neither is set.
    public var resolvedBaseURL: URL? { configuredBaseURL ?? ResolveKitDefaults.environmentBaseURL() }

    /// What ``baseURL`` reads when no base URL is set anywhere: not http(s), so nothing can connect to it.
    static let unsetBaseURL = URL(string: "unset:RESOLVEKIT_BASE_URL")!

    /// The locale to request: the provider's, else the first preferred, else the environment's.
    var resolvedLocale: String? {
        localeProvider() ?? preferredLocalesProvider?().first ?? ResolveKitDefaults.environmentLocale()
    }
}
