import Foundation
import ResolveKitTesting

/// The command line of `rk-devserver`, parsed without side effects.
struct DevServerOptions {
    var port = 8080
    var configuration = ReferenceBackend.Configuration()
    var showHelp = false
    var showVersion = false

    static let usage = """
        USAGE: rk-devserver [options]

        Runs the ResolveKit reference backend on 127.0.0.1 with a scripted agent.

        OPTIONS:
          --port <n>                 port to listen on (default 8080; 0 picks a free port)
          --api-key <key>            accepted API key; repeat for several (default rk_dev)
          --app-id <uuid>            the app id (default 00000000-0000-4000-8000-0000000a0001)
          --session-ttl <seconds>    session idle TTL (default 1800)
          --token-ttl <seconds>      capability token life (default: the session TTL)
          --keep-alive <seconds>     idle time before `: keep-alive` (default 15)
          --stream-cap <seconds>     life of one event-stream connection (default 300)
          --event-ids <redis|numeric>  event id style (default redis)
          --max-tool-rounds <n>      tool rounds before escalation (default 10)
          --tool-results <memory|redis>  answer for results of calls not pending: 200 while a turn runs and
                                     dedupe kept 600 s (redis, the hosted backend, default) or always 404 (memory)
          --fail <spec>              answer an endpoint with a status: "METHOD /path/*:STATUS[:TIMES]"
          --delay <spec>             delay an endpoint: "METHOD /path/*:MILLISECONDS[:TIMES]"
          --drop-after-events <n>    cut every event stream after n events
          --drop-at-byte <n>         cut every event stream after n bytes (mid-frame)
          --duplicate-replay         write every replayed event twice
          --script <file>            JSON rules for exact scenarios, tried before the default agent:
                                     {"rules": [{"keywords": ["lights"], "calls": [{"function": "set_lights",
                                     "arguments": {"room": "kitchen"}}]}, {"always": true, "answer": "…"}]}
          --restart-mid-turn <seconds>  after the next round of tool calls, lose the turn as a restarted
                                     backend does; its lock stays held this long (600 on the hosted backend)
          -h, --help                 show this help
          --version                  print the version

        ENVIRONMENT:
          RK_DEV_LLM_URL             an OpenAI-compatible /v1/chat/completions URL; when set, that model answers
                                     instead of the script (RK_DEV_LLM_MODEL, RK_DEV_LLM_API_KEY optional)

        EXAMPLE:
          swift run rk-devserver --port 8080 --api-key rk_dev --stream-cap 60 \\
              --fail "POST /v1/sessions/*/tool-results:503:2"
        """

    /// A command-line mistake, reported with the usage text and exit code 64.
    struct UsageError: Error, Equatable {
        var message: String
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> DevServerOptions {
        var options = DevServerOptions()
        var keys: Set<String> = []
        var remaining = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = remaining.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            return next
        }
        func number(_ flag: String, in range: ClosedRange<Int> = 0...Int.max) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(
                    message:
                        "\(flag) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return number
        }
        let faults = options.configuration.faults
        while let flag = remaining.popFirst() {
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--port": options.port = try number(flag, in: 0...65535)
            case "--api-key": keys.insert(try value(flag))
            case "--app-id":
                let id = try value(flag)
                guard UUID(uuidString: id) != nil else {
                    throw UsageError(message: "--app-id must be a UUID such as 00000000-0000-4000-8000-0000000a0001, got '\(id)'")
                }
                options.configuration.appID = id.lowercased()
            case "--session-ttl": options.configuration.sessionTTL = .seconds(try number(flag, in: 1...Int.max))
            case "--token-ttl": options.configuration.capabilityTokenTTL = .seconds(try number(flag, in: 1...Int.max))
            case "--keep-alive": options.configuration.keepAliveInterval = .seconds(try number(flag, in: 1...Int.max))
            case "--stream-cap": options.configuration.streamConnectionCap = .seconds(try number(flag, in: 1...Int.max))
            case "--max-tool-rounds": options.configuration.maxToolRounds = try number(flag)
            case "--event-ids":
                switch try value(flag) {
                case "redis": options.configuration.eventIDStyle = .redis
                case "numeric": options.configuration.eventIDStyle = .numeric
                case let other: throw UsageError(message: "--event-ids expects redis or numeric, got '\(other)'")
                }
            case "--tool-results":
                switch try value(flag) {
                case "memory": options.configuration.toolResultSemantics = .inMemory
                case "redis": options.configuration.toolResultSemantics = .redis
                case let other: throw UsageError(message: "--tool-results expects memory or redis, got '\(other)'")
                }
            case "--fail":
                let spec = try endpointSpec(flag, try value(flag))
                faults.fail(spec.endpoint, status: spec.amount, times: spec.times)
            case "--delay":
                let spec = try endpointSpec(flag, try value(flag))
                faults.delay(spec.endpoint, by: .milliseconds(spec.amount), times: spec.times)
            case "--drop-after-events":
                faults.dropStream(.afterEvents(try number(flag, in: 1...Int.max)), connections: .max)
            case "--drop-at-byte":
                faults.dropStream(.atByteOffset(try number(flag, in: 1...Int.max)), connections: .max)
            case "--duplicate-replay": faults.duplicateEventsOnReplay(true)
            case "--script":
                let path = try value(flag)
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw UsageError(message: "--script \(path) does not exist or cannot be read")
                }
                do throws(AgentScript.FileError) {
                    options.configuration.script = try AgentScript(jsonBytes: [UInt8](data))
                } catch {
                    throw UsageError(message: "--script \(path): \(error.message)")
                }
            case "--restart-mid-turn":
                faults.restartAfterNextToolCalls(lockHeldFor: .seconds(try number(flag, in: 0...Int.max)))
            default: throw UsageError(message: "unknown option '\(flag)'")
            }
        }
        if !keys.isEmpty { options.configuration.apiKeys = keys }
        return options
    }

    /// `METHOD /path:NUMBER[:TIMES]`; TIMES defaults to unlimited.
    static func endpointSpec(_ flag: String, _ text: String) throws(UsageError)
        -> (endpoint: FaultPlan.Endpoint, amount: Int, times: Int)
    {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].split(separator: " ", maxSplits: 1).map(String.init)
        guard (2...3).contains(parts.count), target.count == 2, target[1].hasPrefix("/"), let amount = Int(parts[1]),
            amount >= 0,
            parts.count == 2 || Int(parts[2]).map({ $0 > 0 }) == true
        else { throw UsageError(message: "\(flag) expects \"METHOD /path:NUMBER[:TIMES]\", got '\(text)'") }
        let method = target[0] == "*" ? nil : target[0].uppercased()
        return (FaultPlan.Endpoint(method, target[1]), amount, parts.count == 3 ? Int(parts[2])! : .max)
    }
}
