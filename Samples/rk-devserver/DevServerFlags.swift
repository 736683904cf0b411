import ResolveKitCLI

/// `rk-devserver`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum DevServerFlags {
    static let port = Flag(
        "--port", value: "N", kind: .integer(0...65535),
        help: "The port to listen on (default 8080; 0 picks a free one).")
    static let apiKey = Flag(
        "--api-key", value: "KEY", help: "An accepted API key; repeat for several (default rk_dev).", repeatable: true)
    static let appID = Flag(
        "--app-id", value: "UUID", help: "The app id (default 00000000-0000-4000-8000-0000000a0001).")
    static let sessionTTL = Flag(
        "--session-ttl", value: "SECONDS", kind: .integer(1...Int.max), help: "Session idle TTL (default 1800).")
    static let tokenTTL = Flag(
        "--token-ttl", value: "SECONDS", kind: .integer(1...Int.max),
        help: "Capability token life (default: the session TTL).")
    static let keepAlive = Flag(
        "--keep-alive", value: "SECONDS", kind: .integer(1...Int.max),
        help: "Idle time before `: keep-alive` (default 15).")
    static let streamCap = Flag(
        "--stream-cap", value: "SECONDS", kind: .integer(1...Int.max),
        help: "Life of one event-stream connection (default 300).")
    static let eventIDs = Flag(
        "--event-ids", value: "STYLE", kind: .choice(["redis", "numeric"]), help: "Event id style (default redis).")
    static let maxToolRounds = Flag(
        "--max-tool-rounds", value: "N", kind: .integer(0...Int.max),
        help: "Tool rounds before escalation (default 10).")
    static let toolResults = Flag(
        "--tool-results", value: "MODE", kind: .choice(["memory", "redis"]),
        help: "The answer for results of calls not pending: 200 while a turn runs and dedupe kept 600 s (redis, the "
            + "hosted backend, default) or always 404 (memory).")
    static let fail = Flag(
        "--fail", value: "SPEC", help: "Answer an endpoint with a status: \"METHOD /path/*:STATUS[:TIMES]\".",
        repeatable: true)
    static let delay = Flag(
        "--delay", value: "SPEC", help: "Delay an endpoint: \"METHOD /path/*:MILLISECONDS[:TIMES]\".", repeatable: true)
    static let dropAfterEvents = Flag(
        "--drop-after-events", value: "N", kind: .integer(1...Int.max), help: "Cut every event stream after N events.")
    static let dropAtByte = Flag(
        "--drop-at-byte", value: "N", kind: .integer(1...Int.max),
        help: "Cut every event stream after N bytes (mid-frame).")
    static let duplicateReplay = Flag("--duplicate-replay", help: "Write every replayed event twice.")
    static let script = Flag(
        "--script", value: "FILE", kind: .file(mustExist: true),
        help: "JSON rules for exact scenarios, tried before the default agent: {\"rules\": [{\"keywords\": "
            + "[\"lights\"], \"calls\": [{\"function\": \"set_lights\", \"arguments\": {\"room\": \"kitchen\"}}]}, "
            + "{\"always\": true, \"answer\": \"…\"}]}.")
    static let restartMidTurn = Flag(
        "--restart-mid-turn", value: "SECONDS", kind: .integer(0...Int.max),
        help: "After the next round of tool calls, lose the turn as a restarted backend does; its lock stays held "
            + "this long (600 on the hosted backend).")

    static let tool = CommandLineTool(
        name: "rk-devserver",
        summary: "the ResolveKit reference backend on 127.0.0.1, with a scripted agent",
        discussion: """
            No account, no model: its agent calls any function a runtime registered when a message names it, with \
            arguments from the message that fit the function's schema. Logs go to stderr.
            """,
        usage: ["rk-devserver [--port N] [--api-key KEY]... [options]"],
        groups: [
            FlagGroup(nil, [port, apiKey, appID, sessionTTL, tokenTTL, keepAlive, streamCap, eventIDs, maxToolRounds]),
            FlagGroup(
                "SCENARIOS AND FAULTS",
                [toolResults, fail, delay, dropAfterEvents, dropAtByte, duplicateReplay, script, restartMidTurn]),
        ],
        sections: [
            .init(
                "ENVIRONMENT",
                """
                RK_DEV_LLM_URL   an OpenAI-compatible /v1/chat/completions URL; when set, that model answers
                                 instead of the script (RK_DEV_LLM_MODEL, RK_DEV_LLM_API_KEY optional)
                """),
            .init(
                "EXAMPLE",
                """
                rk-devserver --port 8080 --api-key rk_dev --stream-cap 60 \\
                    --fail "POST /v1/sessions/*/tool-results:503:2"
                """),
            .init("EXIT CODES", "0   stopped by a signal\n1   cannot listen on the port\n64  usage error"),
        ])
}
