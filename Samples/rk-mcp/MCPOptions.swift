import ResolveKitCLI

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
    /// `--metrics-listen HOST:PORT`: where `/metrics` is served; `nil` serves none.
    var metricsListen: String?

    /// Parses `arguments` (without the program name) with ``MCPFlags/tool``.
    static func parse(_ arguments: [String]) throws(UsageError) -> MCPOptions {
        try make(try MCPFlags.tool.parse(arguments))
    }

    /// Reads the options from a parsed command line, then checks the files they name. `--approve FILE` is
    /// `--policy FILE`, as in `rk-chat`.
    static func make(_ parsed: ParsedCommandLine) throws(UsageError) -> MCPOptions {
        try parsed.checkFiles()
        var options = MCPOptions()
        switch parsed.value(MCPFlags.approve) {
        case "all": options.approval = .all
        case "prompt": options.approval = .prompt
        case "none", nil: options.approval = .none
        case let path?: options.policy = path
        }
        options.policy = parsed.value(MCPFlags.policy) ?? options.policy
        options.allowedRoots = parsed.values(MCPFlags.allowedRoot)
        options.auditLog = parsed.value(MCPFlags.auditLog)
        options.metricsListen = parsed.value(MCPFlags.metricsListen)
        return options
    }
}

/// `rk-mcp`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum MCPFlags {
    static let policy = Flag(
        "--policy", value: "FILE", kind: .file(mustExist: true),
        help: "Approve by a policy: {\"default\": \"deny\", \"functions\": {\"read_log_tail\": \"allow\"}}; calls it "
            + "says to \"ask\" about go to --approve. Checked against the functions served: any error stops the start "
            + "with each at FILE:LINE:COLUMN.")
    static let approve = Flag(
        "--approve", value: "MODE", kind: .choiceOrFile(["all", "none", "prompt"]),
        help: "Who decides calls that need approval (or that the policy says to ask about): all, none (the default: "
            + "they are declined), prompt (the checklist on the controlling terminal /dev/tty, as stdin and stdout "
            + "carry the protocol), or a policy FILE as with --policy. A call nobody decides within its timeout is "
            + "declined.")
    static let allowedRoot = Flag(
        "--allowed-root", value: "DIR", kind: .directory(mustExist: true, absolute: true),
        help: "A directory the file functions may read; repeat for several (default: none).", repeatable: true)
    static let auditLog = Flag(
        "--audit-log", value: "FILE", kind: .writableFile,
        help: "Append every approval decision and call outcome to a hash-chained audit trail.")

    static let metricsListen = Flag(
        "--metrics-listen", value: "HOST:PORT", kind: .text,
        help: "Serve Prometheus metrics at http://HOST:PORT/metrics, e.g. 127.0.0.1:9465 (a numeric host; keep it on "
            + "loopback). Off by default.")

    static let tool = CommandLineTool(
        name: "rk-mcp",
        summary: "serve this host's system functions to an MCP client over stdio",
        discussion: """
            Serves the time, load, disk, processes, services, and logs and files under the allowed roots, and a \
            `countdown` example, as MCP tools: JSON-RPC 2.0, one message per line on stdin and stdout. An MCP client \
            starts it; it is not run by hand. Logs go to stderr.
            """,
        usage: [
            "rk-mcp [--policy FILE] [--approve all|none|prompt] [--allowed-root DIR]... [--audit-log FILE] "
                + "[--metrics-listen HOST:PORT]"
        ],
        groups: [FlagGroup(nil, [policy, approve, allowedRoot, auditLog, metricsListen])],
        sections: [
            .init(
                "PROTOCOL",
                """
                Revisions 2025-11-25, 2025-06-18 and 2025-03-26 (initialize handshake) and 2026-07-28 (version per
                request, server/discover). Messages over 4 MiB are refused. On end of input or SIGTERM, running calls
                are cancelled and answered, then it exits 0.
                """),
            .init(
                "TELEMETRY",
                """
                --metrics-listen serves the request and call metrics. Traces are exported over OTLP/HTTP (protobuf;
                OTEL_EXPORTER_OTLP_PROTOCOL=http/json for JSON; OTEL_EXPORTER_OTLP_COMPRESSION=gzip compresses) over
                plain http:// when OTEL_EXPORTER_OTLP_ENDPOINT is set (point it at a collector on this host; not
                gRPC, which needs HTTP/2: rk-mcp links no libcurl); a tools/call continues the trace of its
                params._meta.traceparent. OTEL_SERVICE_NAME (default rk-mcp), OTEL_TRACES_SAMPLER and
                OTEL_SDK_DISABLED are honoured.
                """),
            .init(
                "CLIENT CONFIGURATION",
                """
                In an MCP client's server list:
                {"command": "rk-mcp", "args": ["--policy", "/etc/rk-mcp/policy.json", "--allowed-root", "/var/log"]}
                """),
            .init(
                "EXIT CODES",
                """
                0   the client closed stdin, or SIGTERM
                64  usage error (the message names the flag)
                130 SIGINT (Ctrl-C); as with SIGTERM, running calls are cancelled and answered first
                """),
        ])
}
