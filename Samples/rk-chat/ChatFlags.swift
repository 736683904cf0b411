import ResolveKitCLI

/// `rk-chat`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum ChatFlags {
    static let demo = Flag("--demo", help: "Start the reference backend in-process on a loopback port.")
    static let message = Flag(
        "--message", short: "-m", value: "TEXT", help: "Send one message, print the transcript and exit.")
    static let history = Flag(
        "--history", help: "With --message, print the conversation so far before the new turn.")
    static let approve = Flag(
        "--approve", value: "MODE", kind: .choiceOrFile(["all", "none", "prompt"]),
        help: "Who decides calls that need approval: prompt, all, none or the path of a policy file (default: prompt "
            + "in a terminal, none otherwise). A policy is checked against the Linux pack: an error exits 64 naming "
            + "FILE:LINE:COLUMN; its \"ask\" calls go to the prompt in a terminal.")
    static let allowedRoot = Flag(
        "--allowed-root", value: "DIR", kind: .directory(mustExist: true, absolute: true),
        help: "A folder the log and directory functions may read; repeat for several (default: the current folder, "
            + "plus /var/log with --demo).", repeatable: true)
    static let stateDirectory = Flag(
        "--state-dir", value: "DIR", kind: .directory(mustExist: false, absolute: false),
        help: "Where the session and call journal persist (default: $XDG_STATE_HOME/resolvekit/rk-chat/…; memory "
            + "with --demo).")
    static let checkPolicy = Flag(
        "--check-policy", value: "FILE", kind: .file(mustExist: false),
        help: "Check a policy against the Linux pack and exit: each problem to stderr as FILE:LINE:COLUMN: "
            + "error|warning: message, then \"FILE: OK\" (or \"FILE: 2 errors, 1 warning\") to stdout; exit 0 when it "
            + "has no error, else 1.")
    static let turnWatchdog = Flag(
        "--turn-watchdog", value: "SECONDS", kind: .integer(1...3600),
        help: "How long a turn may stay silent before the runtime checks the history; one still silent a period later "
            + "is lost, and the next message goes to a new session (default: 60).")
    static let traceWire = Flag(
        "--trace-wire", value: "FILE", kind: .writableFile,
        help: "Append every event frame and HTTP exchange (method, URL, status, timings) to FILE as JSON lines, "
            + "for diagnostics; secrets are masked.")
    static let auditLog = Flag(
        "--audit-log", value: "PATH", kind: .writableFile,
        help: "Append every approval decision and call outcome to a hash-chained audit trail (verify it with "
            + "rk-approve --verify-audit PATH).")

    static let tool = CommandLineTool(
        name: "rk-chat",
        summary: "talk to a ResolveKit agent from the terminal",
        discussion: """
            The agent can call this host's Linux functions: time, host status, disk usage, processes, services, and \
            logs and folders under the allowed roots. Calls that need approval stop at a prompt (a approve all, \
            d decline, c choose per call, v view arguments, s allow the function for the session; Ctrl-C declines \
            what is pending and quits).
            """,
        usage: [
            "rk-chat --demo",
            "rk-chat [--base-url URL] [--api-key-file PATH] [--approve MODE] [--allowed-root DIR]...",
            "rk-chat --base-url https://HOST --ca-file FILE [--proxy URL] [NETWORK OPTIONS] -m TEXT",
            "rk-chat --demo --message \"What time is it?\" --approve all",
            "rk-chat --check-policy FILE",
        ],
        groups: [
            FlagGroup(
                nil,
                [
                    demo, message, history, approve, allowedRoot, stateDirectory, checkPolicy, auditLog, turnWatchdog,
                    traceWire,
                ]),
            .backend,
            .network,
        ],
        sections: [
            .init(
                "EXAMPLES",
                """
                rk-chat --demo                        chat with the built-in reference backend (no account needed)
                rk-chat --demo --message "What time is it?" --approve all
                                                      one turn: print the transcript and exit (for scripts)
                rk-chat --check-policy Samples/rk-service/policy.json
                                                      check an approval policy (the README's Approvals section)
                """),
            .init(
                "IN THE CHAT",
                """
                /new          start a new conversation
                /history      show the transcript
                /rate N TEXT  rate the conversation 1–5, with an optional comment (also asked when the agent asks)
                /resend       send again the last message that could not be sent (the same request id)
                /locale TAG   switch language, e.g. /locale de
                /quit         leave (also Ctrl-D)
                """),
            .init(
                "EXIT CODES",
                """
                0    the turn (or chat) ended normally; --check-policy: no error (warnings allowed)
                1    the turn failed; --check-policy: an error in the policy
                3    could not connect, or the network failed the turn: the cause is printed in words (untrusted
                     certificate, pin mismatch, client certificate required, proxy needs authentication…) with
                     the flag that changes it; within 30 s, or at once when retrying cannot help
                64   usage error: a flag, variable or file is wrong (the message names it)
                130  quit with Ctrl-C (what was pending was declined)
                """),
        ])
}
