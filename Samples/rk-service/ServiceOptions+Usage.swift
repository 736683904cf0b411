import ResolveKitCLI

/// `rk-service`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum ServiceFlags {
    static let policy = Flag(
        "--policy", value: "FILE", kind: .file(mustExist: false),
        help: "Approvals: {\"default\": \"deny\", \"functions\": {\"get_host_status\": \"allow\", \"read_log_tail\": "
            + "{\"rules\": [{\"if\": {\"$.path\": {\"below\": \"/var/log/nginx\"}}, \"then\": \"allow\"}], "
            + "\"default\": \"ask\"}}} (the README's Approvals section has every condition); without it every call "
            + "that needs approval is declined. Checked against the functions served: any error stops the start "
            + "(exit 64) with each at FILE:LINE:COLUMN; warnings are printed to stderr. With --socket, calls the policy "
            + "says to \"ask\" about wait for an operator's decision through rk-approve --socket PATH until their "
            + "deadline.")
    static let checkPolicy = Flag(
        "--check-policy", value: "FILE", kind: .file(mustExist: false),
        help: "Check a policy against the functions served and exit: each problem to stderr as FILE:LINE:COLUMN: "
            + "error|warning: message, then a summary (\"FILE: OK\" or \"FILE: 2 errors, 1 warning\") to stdout.")
    static let allowedRoot = Flag(
        "--allowed-root", value: "DIR", kind: .directory(mustExist: true, absolute: true),
        help: "A directory the file functions may read; repeat for several.", repeatable: true)
    static let stateDirectory = Flag(
        "--state-dir", value: "DIR", kind: .directory(mustExist: false, absolute: false),
        help: "Where the session, device id and call journal survive restarts (default: $STATE_DIRECTORY from "
            + "systemd, else $XDG_STATE_HOME/resolvekit/rk-service/HOST-DIGEST, one folder per backend and key).")
    static let state = Flag(
        "--state", value: "URL", kind: .text,
        help: "Keep every user's session, cursor, call journal and the remembered approvals in Redis instead of a "
            + "folder, shared by replicas (redis://[user:password@]host[:port][/db] or unix:///path?db=N; or "
            + "$RESOLVEKIT_STATE_URL, which keeps a password out of the process list). Each user is served by the "
            + "replica holding their lease; another answers {\"code\": \"key_owned_elsewhere\", \"owner\": …}.")
    static let statePrefix = Flag(
        "--state-prefix", value: "PREFIX", kind: .text,
        help: "The prefix of this app's Redis keys (default rk:rk-service); replicas of one app share it.")
    static let replicaName = Flag(
        "--replica-name", value: "NAME", kind: .text,
        help: "This replica's name in key_owned_elsewhere answers, for a router to send a user there (default "
            + "HOST:PID); lines without \"user\" get this replica's own session.")
    static let socket = Flag(
        "--socket", value: "PATH", kind: .file(mustExist: false),
        help: "Serve requests on this Unix socket (mode 0600, owner only) instead of stdin/stdout; rk-approve "
            + "connects to it to decide pending approvals.")
    static let auditLog = Flag(
        "--audit-log", value: "PATH", kind: .writableFile,
        help: "Append every approval decision and call outcome to a hash-chained audit trail (verify it with "
            + "rk-approve --verify-audit PATH).")
    static let logLevel = Flag(
        "--log-level", value: "LEVEL", kind: .choice(["trace", "debug", "info", "warning", "error"]),
        help: "trace, debug, info, warning or error (default info; or RESOLVEKIT_LOG_LEVEL).")
    static let drainTimeout = Flag(
        "--drain-timeout", value: "SECONDS", kind: .integer(0...3600),
        help: "How long a shutdown waits for running calls and results (default 10).")
    static let turnTimeout = Flag(
        "--turn-timeout", value: "SECONDS", kind: .integer(1...3600),
        help: "How long a request waits for the agent's answer (default 120).")
    static let turnWatchdog = Flag(
        "--turn-watchdog", value: "SECONDS", kind: .integer(1...3600),
        help: "How long a turn may stay silent before the runtime checks the history; one still silent a period later "
            + "is lost (its request fails) and the user's next message goes to a new session (default 60).")
    static let connectAttempts = Flag(
        "--connect-attempts", value: "N", kind: .integer(0...1000),
        help: "How many times a failed connection is retried in a row before giving up, 1 s apart doubling to 30 s "
            + "(default 5: six attempts over about half a minute; 0 gives up at the first failure); a failure no "
            + "retry can fix (an unknown host, TLS to a plain-HTTP server, a rejected key) gives up at once.")
    static let maxSessions = Flag(
        "--max-sessions", value: "N", kind: .integer(1...100_000),
        help: "Sessions open at once, one per user; more close the least recently used idle one (default 1000).")
    static let idleClose = Flag(
        "--idle-close", value: "SECONDS", kind: .integer(0...86_400),
        help: "A user's session unused this long closes its stream; the next request resumes it (default 300; 0 "
            + "never).")

    static let metricsListen = Flag(
        "--metrics-listen", value: "HOST:PORT", kind: .text,
        help: "Serve Prometheus metrics at http://HOST:PORT/metrics, e.g. 127.0.0.1:9464 (a numeric host; "
            + "[::1]:9464 for IPv6). Keep it on loopback unless the network in between is yours: the README's "
            + "threat model says what the figures reveal. Off by default.")

    static let tool = CommandLineTool(
        name: "rk-service",
        summary: "expose this host's system functions to a ResolveKit agent, headless",
        discussion: """
            Serves the time, load, disk, processes, services, and logs and files under the allowed roots, and \
            answers requests given as JSON lines on stdin or a Unix socket.
            """,
        usage: ["rk-service --base-url URL [--api-key-file PATH] [options] [network options]"],
        groups: [
            FlagGroup(
                nil,
                [
                    policy, checkPolicy, allowedRoot, stateDirectory, state, statePrefix, replicaName, socket,
                    auditLog, logLevel, drainTimeout, turnTimeout, turnWatchdog, connectAttempts, maxSessions,
                    idleClose, metricsListen,
                ]),
            .backend,
            .network,
        ],
        sections: [
            .init(
                "REQUESTS",
                """
                One JSON object per line; one answer line each:
                  {"id": "1", "message": "How busy is this machine?"}
                    -> {"answer":"…","id":"1","status":"ok",
                        "tool_calls":[{"function":"get_host_status","status":"completed"}]}
                  {"id": "2", "command": "status"}
                    -> {"connection":"active","counts":{…},"id":"2","session_id":"…","status":"ok"}
                  {"id": "3", "user": "alice", "message": "Is the disk full?"}
                    -> {"answer":"…","id":"3","status":"ok","tool_calls":[…],"user":"alice"}
                  {"id": "4", "message": "…",
                   "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
                    continues the caller's W3C trace ("tracestate" too); a malformed one starts a new trace.
                A line with "user" is answered in that user's own session (its own conversation, device id and
                state); users are served at once, each user's lines in order. Lines without "user" share one session.
                A declined call is {"function": "…", "status": "declined", "error": "<the reason>"}.
                Approvals (what rk-approve uses; answered at once):
                  {"command": "approvals"}  {"command": "subscribe"}  (then one {"event": …} line per change)
                  {"command": "approve", "call_ids": ["…"]}
                  {"command": "approve", "call_id": "…", "arguments": {…}}
                  {"command": "decline", "call_ids": ["…"], "reason": "…"}
                  {"command": "remember", "function": "…", "scope": "always" | {"hours": 8}, "if": {…}}
                  {"command": "revoke", "remembered_id": "…"}
                Each decision records the deciding user and process from the socket's peer credentials.
                """),
            .init(
                "LOGS AND SIGNALS",
                """
                Logs go to stderr, one `time=… level=… label=… msg="…"` line each (no time= when stderr is the systemd
                journal, which stamps lines itself), never a secret (the API key, the key's passphrase, the proxy's
                password); lines about a request, its turn and its calls carry trace_id and span_id. SIGTERM or SIGINT
                drains: no new requests, running calls finish, results are posted, state is saved, spans are exported.
                With NOTIFY_SOCKET set (systemd Type=notify) it reports READY=1 once connected and STOPPING=1 when
                draining. When the network refuses, the log line says the cause in words: msg="cannot connect"
                cause="untrusted certificate" fix="trust your company's CA…".
                """),
            .init(
                "TELEMETRY",
                """
                --metrics-listen serves the metrics the README's "Operating it" lists. Traces are exported over
                OTLP/HTTP (protobuf, or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json) or OTLP/gRPC
                (OTEL_EXPORTER_OTLP_PROTOCOL=grpc, to a collector's address such as http://127.0.0.1:4317, or
                collector:4317 over TLS unless OTEL_EXPORTER_OTLP_INSECURE=true; gzip with
                OTEL_EXPORTER_OTLP_COMPRESSION=gzip) when OTEL_EXPORTER_OTLP_ENDPOINT (or
                OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; OTEL_SERVICE_NAME (default rk-service),
                OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER and OTEL_SDK_DISABLED are
                honoured as OpenTelemetry specifies.
                """),
            .init(
                "EXIT CODES",
                """
                0   stopped cleanly (signal, or end of stdin); --check-policy: the policy has no error
                1   --check-policy: the policy has an error
                3   the backend could not be reached: no connection within --connect-attempts, or the network
                    refused (an untrusted certificate, a pin, a client certificate, the proxy's credentials)
                64  usage error (bad flag or variable, no API key, unreadable key, secret or policy file, an error
                    in the policy)
                69  the backend refused this host (bad key, unsupported SDK, chat switched off)
                70  internal failure
                73  the state folder cannot be used: another process holds it (state_locked), or it cannot be
                    written (state_store); with --state, Redis cannot be reached (state_store) or another replica
                    of the same --replica-name holds its session (key_owned_elsewhere)
                """),
            .init(
                "EXAMPLE",
                """
                echo '{"id": "1", "message": "What time is it?"}' | RESOLVEKIT_API_KEY=rk_dev \\
                    rk-service --base-url http://127.0.0.1:8080 --allowed-root /var/log --policy policy.json
                Behind a company's network (or the RESOLVEKIT_… variables, as the systemd unit sets them):
                  rk-service --base-url https://agent.corp.example --ca-file /etc/rk-service/company-ca.pem \\
                    --client-cert /etc/rk-service/client.pem --client-key /etc/rk-service/client.key \\
                    --proxy http://proxy.corp.example:3128 --proxy-user svc-agent \\
                    --proxy-password-file /etc/rk-service/proxy-password --header 'X-Tenant: acme'
                """),
        ])
}
