import Foundation

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
    var showHelp = false
    var showVersion = false
    var showHistory = false
    /// `--check-policy FILE`: check the file against the pack and exit.
    var checkPolicy: String?

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> ChatOptions {
        var options = ChatOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            let (flag, inline) = Self.split(argument)
            func take() throws(UsageError) -> String { if let inline { return inline }; return try value(for: flag) }
            switch flag {
            case "--demo": options.demo = true
            case "--base-url": options.baseURL = try take()
            case "--api-key-file": options.apiKeyFile = try take()
            case "--message", "-m": options.message = try take()
            case "--approve":
                let choice = try take()
                switch choice {
                case "all": options.approval = .approveAll
                case "none": options.approval = .declineAll
                case "prompt": options.approval = .prompt
                default: options.approval = .policy(choice)
                }
            case "--allowed-root": options.allowedRoots.append(try take())
            case "--state-dir": options.stateDirectory = try take()
            case "--audit-log": options.auditLog = try take()
            case "--help", "-h": options.showHelp = true
            case "--version": options.showVersion = true
            case "--history": options.showHistory = true
            case "--check-policy": options.checkPolicy = try take()
            case "--api-key":
                throw UsageError(description: "--api-key would show the key in the process list; use RESOLVEKIT_API_KEY or --api-key-file")
            default: throw UsageError(description: "unknown argument \(argument)")
            }
        }
        if options.demo, options.baseURL != nil {
            throw UsageError(description: "--demo runs its own backend; leave out --base-url")
        }
        if !options.showHelp, !options.showVersion, options.checkPolicy == nil { try options.validate(FileManager.default) }
        return options
    }

    /// Checks every flag against the file system before anything starts, so a mistake is named at once.
    func validate(_ files: FileManager) throws(UsageError) {
        if let baseURL {
            guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else {
                throw UsageError(description: "--base-url '\(baseURL)' is not an http:// or https:// URL")
            }
        }
        if let apiKeyFile, !files.isReadableFile(atPath: apiKeyFile) {
            let reason = files.fileExists(atPath: apiKeyFile) ? "cannot be read" : "does not exist"
            throw UsageError(description: "--api-key-file \(apiKeyFile) \(reason)")
        }
        if case .policy(let path) = approval, !files.isReadableFile(atPath: path) {
            throw UsageError(
                description: "--approve '\(path)' is neither all, none, prompt nor a readable policy file")
        }
        for root in allowedRoots {
            var isDirectory: ObjCBool = false
            guard root.hasPrefix("/") else { throw UsageError(description: "--allowed-root must be absolute, got '\(root)'") }
            guard files.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(description: "--allowed-root \(root) is not an existing folder")
            }
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static let help = """
        rk-chat: talk to a ResolveKit agent from the terminal; the agent can call this host's Linux functions
        (time, host status, disk usage, processes, services, and logs and folders under the allowed roots).

        USAGE
          rk-chat --demo                       chat with the built-in reference backend (no account needed)
          rk-chat [--base-url URL]             chat with a real backend (RESOLVEKIT_BASE_URL, RESOLVEKIT_API_KEY)
          rk-chat --demo --message "What time is it?" --approve all
                                               one turn, print the transcript, exit (for scripts and tests)
          rk-chat --check-policy Samples/rk-service/policy.json
                                               check an approval policy (see the README's Approvals section)

        OPTIONS
          --demo                 start the reference backend in-process on a loopback port
          --base-url URL         the backend (default: $RESOLVEKIT_BASE_URL)
          --api-key-file PATH    read the API key from a file (default: $RESOLVEKIT_API_KEY)
          --message, -m TEXT     send one message, print the transcript and exit
          --history              with --message, print the conversation so far before the new turn
          --approve MODE         prompt | all | none | PATH to a policy file (default: prompt in a terminal,
                                 none otherwise). A policy is checked against the Linux pack: an error exits
                                 64 naming FILE:LINE:COLUMN; its "ask" calls go to the prompt in a terminal
          --allowed-root DIR     a folder the log and directory functions may read (repeatable;
                                 default: the current folder, plus /var/log with --demo)
          --state-dir DIR        where the session and call journal persist (default: XDG state; memory with --demo)
          --check-policy FILE    check a policy against the Linux pack and exit: each problem to stderr as
                                 FILE:LINE:COLUMN: error|warning: message, then "FILE: OK" (or
                                 "FILE: 2 errors, 1 warning") to stdout; exit 0 when it has no error, else 1
          --audit-log PATH       append every approval decision and call outcome to a hash-chained
                                 audit trail (verify it with rk-approve --verify-audit PATH)
          --help, -h             this help
          --version              print the version

        IN THE CHAT
          /new            start a new conversation        /history   show the transcript
          /locale TAG     switch language, e.g. /locale de /quit      leave (also Ctrl-D)

        EXIT CODES
          0 the turn (or chat) ended normally   1 the turn failed   3 could not connect (within 30 s)
          --check-policy: 0 no error (warnings allowed), 1 an error in the policy
          64 usage error: a flag or file is wrong (the message names it)
        """
}
