import ResolveKit
import ResolveKitCLI

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

    /// Parses `arguments` (without the program name) with ``ApproveFlags/tool``.
    static func parse(_ arguments: [String]) throws(UsageError) -> ApproveOptions {
        try make(try ApproveFlags.tool.parse(arguments))
    }

    /// Reads the options from a parsed command line and checks what the table cannot: the command's arguments,
    /// and that `--socket` is given unless the audit trail is verified.
    static func make(_ parsed: ParsedCommandLine) throws(UsageError) -> ApproveOptions {
        typealias Flags = ApproveFlags
        var options = ApproveOptions()
        options.socketPath = parsed.value(Flags.socket)
        options.sessionID = parsed.value(Flags.session)
        if let path = parsed.value(Flags.verifyAudit) {
            guard parsed.command == nil else { throw UsageError("--verify-audit takes no command") }
            options.action = .verifyAudit(path)
            return options
        }
        let hours = parsed.number(Flags.hours)
        if let hours, hours <= 0 {
            throw UsageError(
                "--hours expects a number more than 0 and at most 8784, got '\(parsed.value(Flags.hours) ?? "0")'")
        }
        guard options.socketPath != nil else {
            throw UsageError("--socket PATH is required: the socket rk-service was started with")
        }
        options.action = try action(
            parsed.command?.name, parsed.operands, reason: parsed.value(Flags.reason), hours: hours,
            session: options.sessionID, conditions: parsed.value(Flags.conditions))
        // A flag of another command would be dropped without a word; say so instead.
        if parsed.command?.name != "remember", let flag = [Flags.hours, Flags.conditions].first(where: parsed.has) {
            throw UsageError("\(flag.name) goes with remember")
        }
        if parsed.has(Flags.reason), parsed.command?.name != "decline" {
            throw UsageError("--reason goes with decline")
        }
        if case .edit(_, let text) = options.action, jsonObject(text) == nil {
            throw UsageError("edit needs the arguments as a JSON object, got '\(text)'")
        }
        if case .remember(_, _, _, let conditions?) = options.action, jsonObject(conditions) == nil {
            throw UsageError(
                "--if needs a JSON object such as '{\"$.path\": {\"below\": \"/var/log\"}}', got '\(conditions)'")
        }
        return options
    }

    /// `text` as a JSON object, or `nil` when it is not one.
    static func jsonObject(_ text: String) -> JSONValue? {
        guard let value = try? JSONValue(parsing: Array(text.utf8)), value.objectValue != nil else { return nil }
        return value
    }

    private static func action(
        _ command: String?, _ rest: [String], reason: String?, hours: Double?, session: String?, conditions: String?
    ) throws(UsageError) -> Action {
        guard let command else { return .watch }
        func needs(_ count: ClosedRange<Int>) throws(UsageError) {
            guard count.contains(rest.count) else {
                let usage = ApproveFlags.tool.commands.first { $0.name == command }.map { "\($0.name) \($0.arguments)" }
                throw UsageError("usage: rk-approve --socket PATH \(usage ?? command)")
            }
        }
        switch command {
        case "watch":
            try needs(0...0)
            return .watch
        case "list":
            try needs(0...0)
            return .list
        case "approve":
            try needs(1...1000)
            return .approve(rest)
        case "decline":
            try needs(1...1000)
            return .decline(rest, reason: reason)
        case "edit":
            try needs(2...2)
            return .edit(rest[0], arguments: rest[1])
        case "remember":
            try needs(1...1)
            guard hours == nil || session == nil else {
                throw UsageError("remember takes --hours or --session, not both")
            }
            return .remember(rest[0], hours: hours, session: session, conditions: conditions)
        default:
            try needs(1...1)
            return .revoke(rest[0])
        }
    }
}
