import ResolveKitCLI

/// `rk-approve`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum ApproveFlags {
    static let socket = Flag(
        "--socket", value: "PATH", kind: .file(mustExist: false),
        help: "The socket rk-service was started with (its --socket).")
    static let reason = Flag("--reason", value: "TEXT", help: "With decline: what the model is told.")
    static let session = Flag(
        "--session", value: "ID",
        help: "With approve, decline and edit: the session of the calls, when the same call id waits in several; "
            + "with remember: allow the function for this session only.")
    static let hours = Flag(
        "--hours", value: "N", kind: .number(0...8784), help: "With remember: allow the function for N hours only.")
    static let conditions = Flag(
        "--if", value: "JSON",
        help: "With remember: only calls meeting a rule's conditions, e.g. '{\"$.path\": {\"below\": "
            + "\"/var/log/nginx\"}}'.")
    static let verifyAudit = Flag(
        "--verify-audit", value: "FILE", kind: .file(mustExist: false),
        help: "Check the hash chain of an audit trail (and its rotated FILE.1, FILE.2 …); prints OK or the first "
            + "broken line, exits 0 or 1.")

    static let tool = CommandLineTool(
        name: "rk-approve",
        summary: "decide the approvals an rk-service without a terminal is waiting for",
        discussion: """
            Connects to the service's Unix socket, shows each batch of calls waiting for approval with the same \
            checklist as rk-chat, and sends your decision back. Several operators may watch at once: the first \
            decision wins and the others see it. Every decision records your user and process id (from the socket) \
            in the service's audit trail. Ctrl-C at the prompt declines what it shows, then quits.
            """,
        usage: ["rk-approve --socket PATH [COMMAND]", "rk-approve --verify-audit FILE"],
        commands: [
            .init(
                "watch",
                help: "(The default in a terminal.) Prompt for each batch as it arrives: a approve all, d decline all, "
                    + "c choose per call, v view arguments, s allow the function for the session (remembered by the "
                    + "service), ? help, Ctrl-C decline and quit."),
            .init(
                "list",
                help: "Print the pending batches and remembered decisions as JSON, then exit (what rk-approve does "
                    + "without a terminal, so it never blocks)."),
            .init("approve", arguments: "CALL_ID...", help: "Approve these calls."),
            .init("decline", arguments: "CALL_ID...", help: "Decline them; the model is told --reason TEXT."),
            .init(
                "edit", arguments: "CALL_ID JSON",
                help: "Approve one call with corrected arguments, e.g. '{\"lines\": 50}'; they are checked against "
                    + "the function's schema and the model is told they changed."),
            .init(
                "remember", arguments: "FUNCTION",
                help: "Allow FUNCTION from now on: always (default), for --hours N, or for one --session; with --if, "
                    + "only calls meeting a rule's conditions; kept in the service's state folder; a deny rule still "
                    + "wins."),
            .init("revoke", arguments: "ID", help: "Revoke a remembered decision (ids are in `list`)."),
        ],
        groups: [FlagGroup(nil, [socket, reason, session, hours, conditions, verifyAudit])],
        sections: [
            .init(
                "EXIT CODES",
                """
                0    done
                1    refused by the service, or a broken audit trail
                64   usage error
                69   the service cannot be reached
                130  quit with Ctrl-C at a prompt (what it showed was declined)
                """),
            .init(
                "EXAMPLES",
                """
                rk-approve --socket /run/rk-service/rk-service.sock
                rk-approve --socket /run/rk-service/rk-service.sock decline 3f1c… --reason "not during business hours"
                rk-approve --verify-audit /var/lib/rk-service/audit.jsonl
                """),
        ])
}
