/// The command line of `rk-service`, parsed without side effects (no file is read, no environment consulted).
struct ServiceOptions: Equatable {
    var baseURL: String?
    var apiKeyFile: String?
    var policyFile: String?
    /// `--check-policy FILE`: check the file against the pack and exit.
    var checkPolicy: String?
    var allowedRoots: [String] = []
    var stateDirectory: String?
    var socketPath: String?
    var auditLog: String?
    var logLevel: String?
    var drainTimeoutSeconds = 10
    var turnTimeoutSeconds = 120
    var connectAttempts = 5
    var maxSessions = 1000
    var idleCloseSeconds = 300
    var showHelp = false
    var showVersion = false

    /// A command-line mistake, reported with a hint and exit code 64.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Parses `arguments` (without the program name). Both `--flag value` and `--flag=value` are accepted.
    static func parse(_ arguments: [String]) throws(UsageError) -> ServiceOptions {
        var options = ServiceOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var flag = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError(message: "\(flag) needs a value")
                }
                return next
            }
            func number(in range: ClosedRange<Int>) throws(UsageError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw UsageError(
                        message:
                            "\(flag) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'"
                    )
                }
                return number
            }
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--base-url": options.baseURL = try value()
            case "--api-key-file": options.apiKeyFile = try value()
            case "--api-key":
                throw UsageError(
                    message: "--api-key is not supported because every user can read it in `ps`; "
                        + "use --api-key-file PATH or the RESOLVEKIT_API_KEY environment variable")
            case "--policy": options.policyFile = try value()
            case "--check-policy": options.checkPolicy = try value()
            case "--allowed-root":
                let root = try value()
                guard root.hasPrefix("/") else {
                    throw UsageError(message: "--allowed-root must be absolute, got '\(root)'")
                }
                options.allowedRoots.append(root)
            case "--state-dir": options.stateDirectory = try value()
            case "--socket": options.socketPath = try value()
            case "--audit-log": options.auditLog = try value()
            case "--log-level": options.logLevel = try value()
            case "--drain-timeout": options.drainTimeoutSeconds = try number(in: 0...3600)
            case "--turn-timeout": options.turnTimeoutSeconds = try number(in: 1...3600)
            case "--connect-attempts": options.connectAttempts = try number(in: 0...1000)
            case "--max-sessions": options.maxSessions = try number(in: 1...100_000)
            case "--idle-close": options.idleCloseSeconds = try number(in: 0...86_400)
            default: throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        return options
    }
}
