import ResolveKitCLI
import ResolveKitCLINetwork

/// The command line of `rk-service`, parsed without side effects (no file is read, no environment consulted).
struct ServiceOptions: Equatable {
    var baseURL: String?
    var apiKeyFile: String?
    var policyFile: String?
    /// `--check-policy FILE`: check the file against the pack and exit.
    var checkPolicy: String?
    var allowedRoots: [String] = []
    var stateDirectory: String?
    /// `--state URL`: Redis shared by replicas instead of a state folder.
    var stateURL: String?
    var statePrefix: String?
    var replicaName: String?
    var socketPath: String?
    var auditLog: String?
    var logLevel: String?
    var drainTimeoutSeconds = 10
    var turnTimeoutSeconds = 120
    /// `--turn-watchdog`; `nil` keeps the runtime's 60 s.
    var turnWatchdogSeconds: Int?
    var connectAttempts = 5
    var maxSessions = 1000
    var idleCloseSeconds = 300
    /// The network flags (`--ca-file`, `--proxy`, …), joined with their variables by ``ServiceSettings``.
    var network = NetworkOptions()
    /// `--metrics-listen HOST:PORT`: where `/metrics` is served; `nil` serves none.
    var metricsListen: String?

    typealias UsageError = ResolveKitCLI.UsageError

    /// Parses `arguments` (without the program name) with ``ServiceFlags/tool``. Both `--flag value` and
    /// `--flag=value` are accepted.
    static func parse(_ arguments: [String]) throws(UsageError) -> ServiceOptions {
        make(try ServiceFlags.tool.parse(arguments))
    }

    /// Reads the options from a parsed command line (the table has checked every value's form).
    static func make(_ parsed: ParsedCommandLine) -> ServiceOptions {
        typealias Flags = ServiceFlags
        var options = ServiceOptions()
        options.baseURL = parsed.value(.baseURL)
        options.apiKeyFile = parsed.value(.apiKeyFile)
        options.policyFile = parsed.value(Flags.policy)
        options.checkPolicy = parsed.value(Flags.checkPolicy)
        options.allowedRoots = parsed.values(Flags.allowedRoot)
        options.stateDirectory = parsed.value(Flags.stateDirectory)
        options.stateURL = parsed.value(Flags.state)
        options.statePrefix = parsed.value(Flags.statePrefix)
        options.replicaName = parsed.value(Flags.replicaName)
        options.socketPath = parsed.value(Flags.socket)
        options.auditLog = parsed.value(Flags.auditLog)
        options.logLevel = parsed.value(Flags.logLevel)
        options.drainTimeoutSeconds = parsed.integer(Flags.drainTimeout) ?? options.drainTimeoutSeconds
        options.turnTimeoutSeconds = parsed.integer(Flags.turnTimeout) ?? options.turnTimeoutSeconds
        options.turnWatchdogSeconds = parsed.integer(Flags.turnWatchdog)
        options.connectAttempts = parsed.integer(Flags.connectAttempts) ?? options.connectAttempts
        options.maxSessions = parsed.integer(Flags.maxSessions) ?? options.maxSessions
        options.idleCloseSeconds = parsed.integer(Flags.idleClose) ?? options.idleCloseSeconds
        options.network = NetworkOptions(parsed)
        options.metricsListen = parsed.value(Flags.metricsListen)
        return options
    }
}
