extension ServiceOptions {
    /// The `--help` text.
    static let usage = """
        USAGE: rk-service --base-url <url> [--api-key-file <path>] [options]

        Exposes this host's system functions (time, load, disk, processes, services, logs and files under the
        allowed roots) to a ResolveKit agent, and answers requests given as JSON lines on stdin or a Unix socket.

        OPTIONS:
          --base-url <url>           the backend (or RESOLVEKIT_BASE_URL)
          --api-key-file <path>      a file holding the API key (or RESOLVEKIT_API_KEY); there is no --api-key
                                     flag, because command lines are visible to every user in `ps`
          --policy <file.json>       approvals: {"default": "deny", "functions": {"get_host_status": "allow",
                                     "read_log_tail": {"rules": [{"if": {"$.path": {"below": "/var/log/nginx"}},
                                     "then": "allow"}], "default": "ask"}}} (the README's Approvals section has
                                     every condition); without it every call that needs approval is declined.
                                     Checked against the functions served: any error stops the start (exit 64)
                                     with each at FILE:LINE:COLUMN; warnings are printed to stderr. With
                                     --socket, calls the policy says to "ask" about wait for an operator's
                                     decision through rk-approve --socket <path> until their deadline
          --check-policy <file.json> check a policy against the functions served and exit: each problem to
                                     stderr as FILE:LINE:COLUMN: error|warning: message, then a summary
                                     ("FILE: OK" or "FILE: 2 errors, 1 warning") to stdout
          --allowed-root <dir>       a directory the file functions may read; repeat for several
          --state-dir <dir>          where the session, device id and call journal survive restarts
                                     (default $STATE_DIRECTORY from systemd, else ~/.local/state/resolvekit)
          --socket <path>            serve requests on this Unix socket (mode 0600, owner only) instead of
                                     stdin/stdout; rk-approve connects to it to decide pending approvals
          --audit-log <path>         append every approval decision and call outcome to a hash-chained audit
                                     trail (verify it with rk-approve --verify-audit <path>)
          --log-level <level>        trace, debug, info, warning or error (default info; or RESOLVEKIT_LOG_LEVEL)
          --drain-timeout <seconds>  how long a shutdown waits for running calls and results (default 10)
          --turn-timeout <seconds>   how long a request waits for the agent's answer (default 120)
          --connect-attempts <n>     failed connection attempts in a row before giving up (default 5)
          --max-sessions <n>         sessions open at once, one per user; more close the least recently used
                                     idle one (default 1000)
          --idle-close <seconds>     a user's session unused this long closes its stream; the next request
                                     resumes it (default 300; 0 never)
          -h, --help                 show this help
          --version                  print the version

        REQUESTS (one JSON object per line; one answer line each):
          {"id": "1", "message": "How busy is this machine?"}
            -> {"answer":"…","id":"1","status":"ok","tool_calls":[{"function":"get_host_status","status":"completed"}]}
          {"id": "2", "command": "status"}
            -> {"connection":"active","counts":{…},"id":"2","session_id":"…","status":"ok"}
          {"id": "3", "user": "alice", "message": "Is the disk full?"}
            -> {"answer":"…","id":"3","status":"ok","tool_calls":[…],"user":"alice"}
        A line with "user" is answered in that user's own session (its own conversation, device id and state);
        users are served at once, each user's lines in order. Lines without "user" share one session.
        Approvals (what rk-approve uses; answered at once):
          {"command": "approvals"}  {"command": "subscribe"}  (then one {"event": …} line per change)
          {"command": "approve", "call_ids": ["…"]}   {"command": "approve", "call_id": "…", "arguments": {…}}
          {"command": "decline", "call_ids": ["…"], "reason": "…"}
          {"command": "remember", "function": "…", "scope": "always" | {"hours": 8}, "if": {…}}
          {"command": "revoke", "remembered_id": "…"}
        Each decision records the deciding user and process from the socket's peer credentials.

        Logs go to stderr, one `level=… label=… msg="…"` line each. SIGTERM or SIGINT drains: no new requests,
        running calls finish, results are posted, state is saved. With NOTIFY_SOCKET set (systemd Type=notify)
        it reports READY=1 once connected and STOPPING=1 when draining.

        EXIT CODES:
          0   stopped cleanly (signal, or end of stdin); --check-policy: the policy has no error
          1   --check-policy: the policy has an error
          64  usage error (bad flag, no API key, unreadable key or policy file, an error in the policy)
          69  the backend is unavailable or refused this host (bad key, unsupported SDK)
          70  internal failure

        EXAMPLE:
          echo '{"id": "1", "message": "What time is it?"}' | RESOLVEKIT_API_KEY=rk_dev \\
              rk-service --base-url http://127.0.0.1:8080 --allowed-root /var/log --policy policy.json
        """
}
