// rk-crash-probe: a runtime in a process of its own, for tests that kill it and start it again.
//
//   rk-crash-probe --base-url URL --state-dir DIR|automatic [--message TEXT] [--key KEY]
//   rk-crash-probe --spawn-sleep SECONDS
//
// `--state-dir automatic` keeps its state where a program's is by default (`$XDG_STATE_HOME/resolvekit/<program>/…`).
// With --message it asks and prints `answer: …`; without, it starts, posts what the journal still holds, and exits.
// With --key it runs the session of that key in a ResolveKitHost instead of a runtime of its own.
// Its functions print `started <call id>` when they begin, and a call waiting for approval (which never comes)
// `awaiting <call id>`, so a test knows exactly when to kill it.
// `--spawn-sleep` starts `/bin/sleep SECONDS` as every child of this package is started, prints `child <pid>` and
// waits for it: a test kills this process and looks whether the child outlived it.
import Foundation
import ResolveKit
import ResolveKitChildProcess

/// Prints a line at once (stdout is a pipe: no buffering may hide a line from the test).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Blocks until cancelled: the call a test kills the process in the middle of.
struct Hold: AnyResolveKitFunction {
    static let resolveKitName = "hold"
    static let resolveKitDescription = "Holds until the process is killed."
    static let resolveKitRequiresApproval = false
    static let resolveKitTimeoutSeconds: Int? = 60
    static let resolveKitParametersSchema: JSONObject = ["type": "object"]
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        say("started \(context.callID ?? "-")")
        try await Task.sleep(for: .seconds(3600))
        return "released"
    }
}

/// Returns at once: the call whose result a test kills the process while posting.
struct Quick: AnyResolveKitFunction {
    static let resolveKitName = "quick"
    static let resolveKitDescription = "Answers at once."
    static let resolveKitRequiresApproval = false
    static let resolveKitTimeoutSeconds: Int? = 60
    static let resolveKitParametersSchema: JSONObject = ["type": "object"]
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        say("started \(context.callID ?? "-")")
        return "done"
    }
}

/// Needs a person's approval, which never comes (the probe decides nothing): the call a test kills the process
/// in the middle of deciding.
struct Guarded: AnyResolveKitFunction {
    static let resolveKitName = "guarded"
    static let resolveKitDescription = "Waits for an approval nobody gives."
    static let resolveKitRequiresApproval = true
    static let resolveKitTimeoutSeconds: Int? = 60
    static let resolveKitParametersSchema: JSONObject = ["type": "object"]
    static func invoke(arguments: JSONObject, context: ResolveKitFunctionContext) async throws -> JSONValue {
        say("started \(context.callID ?? "-")")
        return "ran"
    }
}

/// Prints `awaiting <call id>` for each call that waits for approval, so a test knows when to kill the process.
func announceApprovals(_ approvals: ToolApprovals) -> Task<Void, Never> {
    let updates = approvals.updates
    return Task {
        for await update in updates {
            guard case .requested(let request) = update else { continue }
            for call in request.calls { say("awaiting \(call.id.rawValue)") }
        }
    }
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { break }
    options[flag] = value
}
if let seconds = options["--spawn-sleep"] {
    let child = try ChildProcess.spawn("/bin/sleep", arguments: [seconds])
    say("child \(child.pid)")
    child.waitUntilExit()
    exit(0)
}
guard let base = options["--base-url"].flatMap(URL.init(string:)), let state = options["--state-dir"] else {
    FileHandle.standardError.write(Data("usage: rk-crash-probe --base-url URL --state-dir DIR [--message TEXT] [--key KEY]\n".utf8))
    exit(64)
}
let configuration = ResolveKitConfiguration(
    baseURL: base, apiKeyProvider: { "rk_dev" }, deviceIDProvider: { "crash-probe" },
    functions: [Hold.self, Quick.self, Guarded.self], approver: ToolApprovals.Deferred(),
    stateLocation: state == "automatic" ? .automatic : .directory(state))
do {
    if let key = options["--key"] {
        let host = ResolveKitHost(configuration: configuration, options: .init(idleTimeout: nil))
        _ = announceApprovals(host.approvals)
        let runtime = try await host.session(for: key)
        say("connected \(runtime.sessionID ?? "-")")
        if let message = options["--message"] {
            say("answer: \(try await host.ask(message, as: key, timeout: .seconds(60)).text)")
        }
        await host.drain(timeout: .seconds(20))
    } else {
        let runtime = ResolveKitRuntime(configuration: configuration)
        _ = announceApprovals(runtime.approvals)
        try await runtime.start()
        say("connected \(runtime.sessionID ?? "-")")
        if let message = options["--message"] {
            say("answer: \(try await runtime.ask(message, timeout: .seconds(60)).text)")
        }
        await runtime.drain(timeout: .seconds(20))
    }
    say("drained")
} catch {
    say("error: \(error)")
    exit(1)
}
