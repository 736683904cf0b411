import Foundation
import ResolveKit
import ResolveKitTesting

/// The reference backend served on a loopback port for `--demo`, with a script whose file functions read the
/// allowed roots.
struct DemoBackend {
    let backend: ReferenceBackend
    let server: LoopbackHTTPServer

    static let apiKey = "rk_demo"

    static func start(directory: String, logFile: String) throws -> DemoBackend {
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(
            apiKeys: [apiKey], script: script(directory: directory, logFile: logFile)))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        return DemoBackend(backend: backend, server: server)
    }

    func stop() async {
        await backend.stop()
        await server.stop()
    }

    /// The default script, with arguments for the functions that need them; a message that names a function by its
    /// exact name calls it with arguments from the message instead.
    static func script(directory: String, logFile: String) -> AgentScript {
        func rule(_ keywords: [String], _ name: String, _ arguments: JSONValue, _ description: String) -> AgentScript.Rule {
            AgentScript.Rule(
                .keywords(keywords),
                rounds: [
                    .toolCalls([.init(name, arguments: arguments, humanDescription: description)]),
                    .text(AgentScript.doneTemplate),
                ])
        }
        var rules = [
            rule(["log"], "read_log_tail", ["path": .string(logFile), "lines": 10], "I will read the last 10 lines of \(logFile)."),
            rule(["directory", "folder", "files in"], "list_directory", ["path": .string(directory)], "I will list \(directory)."),
            rule(["process"], "list_top_processes", ["limit": 5, "sortBy": "cpu"], "I will list the 5 busiest processes."),
            rule(["service", "systemd"], "get_service_status", ["unit": "ssh.service"], "I will check ssh.service."),
        ]
        rules += AgentScript.default.rules.filter { rule in
            if case .keywords(let words) = rule.match {
                return !words.contains { ["log", "directory", "process", "service"].contains($0) }
            }
            return true
        }
        // A function named as it is ("list_directory path: /var/log") is called with the message's arguments.
        return AgentScript(rules: rules, fallback: AgentScript.default.fallback, callsNamedFunctions: true)
    }

    /// A readable log file for the demo: the first that exists of a few usual ones.
    static func defaultLogFile(in directory: String) -> String {
        let candidates = ["/var/log/dpkg.log", "/var/log/apt/history.log", "/var/log/syslog", "/var/log/alternatives.log"]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) } ?? directory + "/README.md"
    }
}
