import Foundation

extension AgentScript {
    /// The final-answer template of the recorded fake model: `Done. The <name> returned "<result>".`
    public static let doneTemplate = "Done. The {name} returned \"{result}\"."

    /// A rule that calls one function when the message mentions any of `keywords`, with arguments from its
    /// schema and the message (``SchemaArguments``), then answers with ``doneTemplate``.
    public static func callRule(_ keywords: [String], function name: String) -> Rule {
        let description = "I will " + name.replacingOccurrences(of: "_", with: " ") + " for you."
        return Rule(
            .keywords(keywords),
            rounds: [
                .toolCalls([ToolCall(name, humanDescription: description, argumentsFromMessage: true)]),
                .text(doneTemplate),
            ])
    }

    /// The demo script: questions about time, disk, load/uptime/memory, processes, logs, directories and
    /// services call the matching function of the system function pack (when the session allows it);
    /// `simulate llm error` and `simulate provider auth error` fail the turn, `talk to a human` escalates,
    /// `off-topic` is rejected; a message that names any registered function (the host's own included) by name or
    /// by words of its description calls it with arguments from its schema; anything else gets a plain-text answer
    /// quoting the message.
    public static let `default` = AgentScript(
        rules: [
            Rule(
                .keywords(["simulate llm error"]),
                rounds: [.error(code: "llm_error", message: "Assistant is temporarily unavailable. Please try again.")]),
            Rule(
                .keywords(["simulate provider auth error"]),
                rounds: [.error(code: "chat_unavailable", message: "Chat is unavailable, try again later")]),
            Rule(
                .keywords(["talk to a human", "human agent"]),
                rounds: [.escalate(reason: "User asked for a human agent")]),
            Rule(.keywords(["off-topic"]), rounds: [.rejection("Sorry, I can only help with this app.")]),
            callRule(["time", "clock", "date"], function: "get_local_time"),
            callRule(["disk", "storage", "free space"], function: "get_disk_usage"),
            callRule(["busy", "load", "uptime", "memory", "ram", "cpu", "host status"], function: "get_host_status"),
            callRule(["process"], function: "list_top_processes"),
            callRule(["log"], function: "read_log_tail"),
            callRule(["directory", "folder", "files in"], function: "list_directory"),
            callRule(["service", "systemd", "daemon"], function: "get_service_status"),
        ],
        callsNamedFunctions: true
    )
}
