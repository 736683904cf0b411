/// The command line of `rk-mcp`.
struct MCPOptions: Equatable {
    /// Who approves calls that need approval (after the policy, when there is one).
    enum Approval: Equatable {
        case all
        case none
        /// A person at the controlling terminal (`/dev/tty`), as stdin and stdout carry the protocol.
        case prompt
    }

    var approval = Approval.none
    var policy: String?
    var allowedRoots: [String] = []
    var auditLog: String?
    var showHelp = false
    var showVersion = false

    /// A mistake on the command line: one line, then "See rk-mcp --help.", exit 64.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> MCPOptions {
        var options = MCPOptions()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--approve":
                switch try value(argument) {
                case "all": options.approval = .all
                case "none": options.approval = .none
                case "prompt": options.approval = .prompt
                case let path: options.policy = path
                }
            case "--policy": options.policy = try value(argument)
            case "--allowed-root":
                let root = try value(argument)
                guard root.hasPrefix("/") else {
                    throw UsageError(description: "--allowed-root must be absolute, got '\(root)'")
                }
                options.allowedRoots.append(root)
            case "--audit-log": options.auditLog = try value(argument)
            default: throw UsageError(description: "unknown option '\(argument)'")
            }
            index += 1
        }
        return options
    }

    static let help = """
        USAGE: rk-mcp [--policy FILE] [--approve all|none|prompt] [--allowed-root DIR]... [--audit-log FILE]

        Serves this host's system functions (time, load, disk, processes, services, and logs and files under the
        allowed roots) and a `countdown` example to an MCP client over stdio: JSON-RPC 2.0, one message per line
        on stdin and stdout. An MCP client starts it; it is not run by hand. Logs go to stderr.

        OPTIONS:
          --policy FILE          approve by a policy: {"default": "deny", "functions": {"read_log_tail": "allow"}};
                                 calls it says to "ask" about go to --approve; checked against the functions
                                 served, any error stops the start with each at FILE:LINE:COLUMN
          --approve MODE         who decides calls that need approval (or that the policy says to ask about):
                                 all, none (the default: they are declined), or prompt: the checklist on the
                                 controlling terminal /dev/tty (stdin and stdout carry the protocol); a call
                                 nobody decides within its timeout is declined
          --allowed-root DIR     a directory the file functions may read; repeat for several (default: none)
          --audit-log FILE       append every approval decision and call outcome to a hash-chained audit trail
          -h, --help             this help
          --version              print the version

        PROTOCOL: revisions 2025-11-25, 2025-06-18 and 2025-03-26 (initialize handshake) and 2026-07-28
        (version per request, server/discover). Messages over 4 MiB are refused. On end of input or SIGTERM,
        running calls are cancelled and answered, then it exits 0.

        CLIENT CONFIGURATION (e.g. in an MCP client's server list):
          {"command": "rk-mcp", "args": ["--policy", "/etc/rk-mcp/policy.json", "--allowed-root", "/var/log"]}
        """
}
