import Foundation
import ResolveKitCLI
import ResolveKitTesting

/// The command line of `rk-devserver`, parsed without side effects.
struct DevServerOptions {
    var port = 8080
    var configuration = ReferenceBackend.Configuration()
    /// The `--script` file the agent follows; `nil` for the built-in script.
    var scriptPath: String?

    typealias UsageError = ResolveKitCLI.UsageError

    /// Parses `arguments` (without the program name) with ``DevServerFlags/tool``.
    static func parse(_ arguments: [String]) throws(UsageError) -> DevServerOptions {
        try make(try DevServerFlags.tool.parse(arguments))
    }

    /// Reads the options from a parsed command line; checks the app id, the fault specs and the script.
    static func make(_ parsed: ParsedCommandLine) throws(UsageError) -> DevServerOptions {
        typealias Flags = DevServerFlags
        var options = DevServerOptions()
        try parsed.checkFiles()
        options.port = parsed.integer(Flags.port) ?? options.port
        let keys = Set(parsed.values(Flags.apiKey))
        if !keys.isEmpty { options.configuration.apiKeys = keys }
        if let id = parsed.value(Flags.appID) {
            guard UUID(uuidString: id) != nil else {
                throw UsageError("--app-id must be a UUID such as 00000000-0000-4000-8000-0000000a0001, got '\(id)'")
            }
            options.configuration.appID = id.lowercased()
        }
        if let seconds = parsed.integer(Flags.sessionTTL) { options.configuration.sessionTTL = .seconds(seconds) }
        if let seconds = parsed.integer(Flags.tokenTTL) { options.configuration.capabilityTokenTTL = .seconds(seconds) }
        if let seconds = parsed.integer(Flags.keepAlive) { options.configuration.keepAliveInterval = .seconds(seconds) }
        if let seconds = parsed.integer(Flags.streamCap) {
            options.configuration.streamConnectionCap = .seconds(seconds)
        }
        if let rounds = parsed.integer(Flags.maxToolRounds) { options.configuration.maxToolRounds = rounds }
        if let style = parsed.value(Flags.eventIDs) {
            options.configuration.eventIDStyle = style == "numeric" ? .numeric : .redis
        }
        if let semantics = parsed.value(Flags.toolResults) {
            options.configuration.toolResultSemantics = semantics == "memory" ? .inMemory : .redis
        }
        let faults = options.configuration.faults
        for text in parsed.values(Flags.fail) {
            let spec = try endpointSpec(Flags.fail.name, text)
            faults.fail(spec.endpoint, status: spec.amount, times: spec.times)
        }
        for text in parsed.values(Flags.delay) {
            let spec = try endpointSpec(Flags.delay.name, text)
            faults.delay(spec.endpoint, by: .milliseconds(spec.amount), times: spec.times)
        }
        if let events = parsed.integer(Flags.dropAfterEvents) {
            faults.dropStream(.afterEvents(events), connections: .max)
        }
        if let byte = parsed.integer(Flags.dropAtByte) { faults.dropStream(.atByteOffset(byte), connections: .max) }
        if parsed.has(Flags.duplicateReplay) { faults.duplicateEventsOnReplay(true) }
        if let path = parsed.value(Flags.script) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("--script \(path) cannot be read")
            }
            do throws(AgentScript.FileError) {
                options.configuration.script = try AgentScript(jsonBytes: [UInt8](data))
                options.scriptPath = path
            } catch {
                throw UsageError("--script \(path): \(error.message)")
            }
        }
        if let seconds = parsed.integer(Flags.restartMidTurn) {
            faults.restartAfterNextToolCalls(lockHeldFor: .seconds(seconds))
        }
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
        else { throw UsageError("\(flag) expects \"METHOD /path:NUMBER[:TIMES]\", got '\(text)'") }
        let method = target[0] == "*" ? nil : target[0].uppercased()
        return (FaultPlan.Endpoint(method, target[1]), amount, parts.count == 3 ? Int(parts[2])! : .max)
    }
}
