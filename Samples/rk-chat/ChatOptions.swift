import ResolveKitCLI
import ResolveKitCLINetwork

/// What `rk-chat` was asked to do, parsed from its arguments and environment.
struct ChatOptions: Equatable {
    /// How tool calls needing approval are decided.
    enum Approval: Equatable {
        /// Ask at the terminal (interactive default).
        case prompt
        /// Approve every call.
        case approveAll
        /// Decline every call (non-interactive default).
        case declineAll
        /// Rules from a policy file.
        case policy(String)
    }

    var demo = false
    var baseURL: String?
    var apiKeyFile: String?
    var message: String?
    var approval: Approval?
    var allowedRoots: [String] = []
    var stateDirectory: String?
    var auditLog: String?
    var showHistory = false
    /// `--check-policy FILE`: check the file against the pack and exit.
    var checkPolicy: String?
    /// `--turn-watchdog SECONDS`: the runtime's turn watchdog period.
    var turnWatchdog: Duration?
    /// `--trace-wire FILE`: where the wire tap is written.
    var traceWire: String?
    /// The network flags (`--ca-file`, `--proxy`, …), joined with their variables when the chat starts.
    var network = NetworkOptions()

    /// Parses `arguments` (without the program name) with ``ChatFlags/tool``.
    static func parse(_ arguments: [String]) throws(UsageError) -> ChatOptions {
        try make(try ChatFlags.tool.parse(arguments))
    }

    /// Reads the options from a parsed command line, then checks the files they name.
    static func make(_ parsed: ParsedCommandLine) throws(UsageError) -> ChatOptions {
        var options = ChatOptions()
        options.demo = parsed.has(ChatFlags.demo)
        options.baseURL = parsed.value(.baseURL)
        options.apiKeyFile = parsed.value(.apiKeyFile)
        options.message = parsed.value(ChatFlags.message)
        if let message = options.message, message.isEmpty || message.utf8.count > 32_768 {
            throw UsageError("--message needs a text of 1 to 32768 bytes, got \(message.utf8.count)")
        }
        options.approval = parsed.value(ChatFlags.approve).map { choice in
            switch choice {
            case "all": .approveAll
            case "none": .declineAll
            case "prompt": .prompt
            default: .policy(choice)
            }
        }
        options.allowedRoots = parsed.values(ChatFlags.allowedRoot)
        options.stateDirectory = parsed.value(ChatFlags.stateDirectory)
        options.auditLog = parsed.value(ChatFlags.auditLog)
        options.showHistory = parsed.has(ChatFlags.history)
        if options.showHistory, options.message == nil {
            throw UsageError("--history goes with --message (the chat shows the conversation itself; /history too)")
        }
        options.checkPolicy = parsed.value(ChatFlags.checkPolicy)
        options.turnWatchdog = parsed.value(ChatFlags.turnWatchdog).flatMap(Int.init).map { .seconds($0) }
        options.traceWire = parsed.value(ChatFlags.traceWire)
        options.network = NetworkOptions(parsed)
        if options.demo, options.baseURL != nil {
            throw UsageError("--demo runs its own backend; leave out --base-url")
        }
        if options.demo, let flag = options.network.flagNames.first {
            throw UsageError("--demo runs its own backend on loopback; leave out \(flag), which is for --base-url")
        }
        if options.checkPolicy == nil { try parsed.checkFiles() }
        return options
    }
}
