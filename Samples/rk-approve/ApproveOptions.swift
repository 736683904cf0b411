/// The command line of `rk-approve`.
struct ApproveOptions: Equatable {
    /// What to do.
    enum Action: Equatable {
        case watch
        case list
        case approve([String])
        case decline([String], reason: String?)
        case edit(String, arguments: String)
        case remember(String, hours: Double?, session: String?, conditions: String?)
        case revoke(String)
        case verifyAudit(String)
    }

    var socketPath: String?
    var action: Action?
    /// `--session ID`: the session of the calls, when the same call id waits in several.
    var sessionID: String?
    var showHelp = false
    var showVersion = false

    /// A command-line mistake: one line, then "See rk-approve --help.", exit 64.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> ApproveOptions {
        var options = ApproveOptions()
        var words: [String] = []
        var reason: String?
        var hours: Double?
        var session: String?
        var conditions: String?
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
            case "--socket": options.socketPath = try value(argument)
            case "--reason": reason = try value(argument)
            case "--session":
                session = try value(argument)
                options.sessionID = session
            case "--if": conditions = try value(argument)
            case "--hours":
                let text = try value(argument)
                guard let number = Double(text), number > 0, number <= 24 * 366 else {
                    throw UsageError(description: "--hours must be a number of hours from 0 to 8784, got '\(text)'")
                }
                hours = number
            case "--verify-audit": options.action = .verifyAudit(try value(argument))
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(description: "unknown option '\(argument)'") }
                words.append(argument)
            }
            index += 1
        }
        if options.showHelp || options.showVersion { return options }
        if case .verifyAudit = options.action {
            guard words.isEmpty else { throw UsageError(description: "--verify-audit takes no command") }
            return options
        }
        guard options.socketPath != nil else {
            throw UsageError(description: "--socket PATH is required: the socket rk-service was started with")
        }
        options.action = try action(words, reason: reason, hours: hours, session: session, conditions: conditions)
        return options
    }

    private static func action(
        _ words: [String], reason: String?, hours: Double?, session: String?, conditions: String?
    ) throws(UsageError) -> Action {
        guard let command = words.first else { return .watch }
        let rest = Array(words.dropFirst())
        func needs(_ count: ClosedRange<Int>, _ usage: String) throws(UsageError) {
            guard count.contains(rest.count) else {
                throw UsageError(description: "usage: rk-approve --socket PATH \(usage)")
            }
        }
        switch command {
        case "watch":
            try needs(0...0, "watch")
            return .watch
        case "list":
            try needs(0...0, "list")
            return .list
        case "approve":
            try needs(1...1000, "approve CALL_ID...")
            return .approve(rest)
        case "decline":
            try needs(1...1000, "decline CALL_ID... [--reason TEXT]")
            return .decline(rest, reason: reason)
        case "edit":
            try needs(2...2, "edit CALL_ID '{\"argument\": value}'")
            return .edit(rest[0], arguments: rest[1])
        case "remember":
            try needs(1...1, "remember FUNCTION [--hours N | --session SESSION_ID] [--if JSON]")
            guard hours == nil || session == nil else {
                throw UsageError(description: "remember takes --hours or --session, not both")
            }
            return .remember(rest[0], hours: hours, session: session, conditions: conditions)
        case "revoke":
            try needs(1...1, "revoke REMEMBERED_ID")
            return .revoke(rest[0])
        default:
            throw UsageError(
                description:
                    "unknown command '\(command)'; the commands are watch, list, approve, decline, edit, remember, "
                    + "revoke"
            )
        }
    }

    static let help = """
        USAGE: rk-approve --socket PATH [COMMAND]
               rk-approve --verify-audit FILE

        The approval prompt for an rk-service that has no terminal: it connects to the service's Unix socket,
        shows each batch of calls waiting for approval with the same checklist as rk-chat, and sends your
        decision back. Several operators may watch at once: the first decision wins and the others see it.
        Every decision records your user and process id (from the socket) in the service's audit trail.

        COMMANDS:
          watch                      (default in a terminal) prompt for each batch as it arrives: a approve all,
                                     d decline all, c choose per call, v view arguments, s allow the function for
                                     the session (remembered by the service), ? help
          list                       print the pending batches and remembered decisions as JSON, then exit
                                     (what rk-approve does without a terminal, so it never blocks)
          approve CALL_ID...         approve these calls
          decline CALL_ID... [--reason TEXT]
                                     decline them; the model is told TEXT (approve, decline and edit take
                                     --session ID when the same call id waits in several sessions)
          edit CALL_ID JSON          approve one call with corrected arguments, e.g. '{"lines": 50}'; they are
                                     checked against the function's schema and the model is told they changed
          remember FUNCTION [--hours N | --session SESSION_ID] [--if JSON]
                                     allow FUNCTION from now on: always (default), for N hours, or for one
                                     session; with --if, only calls meeting a rule's conditions, e.g.
                                     '{"$.path": {"below": "/var/log/nginx"}}'; kept in the service's state
                                     folder; a deny rule still wins
          revoke ID                  revoke a remembered decision (ids are in `list`)

        OPTIONS:
          --socket PATH              the socket rk-service was started with (--socket)
          --verify-audit FILE        check the hash chain of an audit trail (and its rotated FILE.1, FILE.2 …);
                                     prints OK or the first broken line, exits 0 or 1
          -h, --help                 this help
          --version                  print the version

        EXIT CODES: 0 done, 1 refused by the service or a broken audit trail, 64 usage error,
                    69 the service cannot be reached.

        EXAMPLES:
          rk-approve --socket /run/rk-service/socket
          rk-approve --socket /run/rk-service/socket decline 3f1c… --reason "not during business hours"
          rk-approve --verify-audit /var/lib/rk-service/audit.jsonl
        """
}
