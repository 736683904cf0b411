import Foundation
import ResolveKit
import ResolveKitCLI
import ResolveKitCLINetwork
import ResolveKitHTTP
import ResolveKitSystemFunctions
import ResolveKitTerminal
import ResolveKitTesting

/// `rk-chat`: an interactive terminal client, and a one-shot mode for scripts.
@main
struct RKChat {
    static func main() async {
        let tool = ChatFlags.tool
        let parsed = tool.parseOrExit(version: ResolveKitRuntime.version)
        let options: ChatOptions
        do {
            options = try ChatOptions.make(parsed)
        } catch {
            tool.exit(with: error)
        }
        if let path = options.checkPolicy { exit(checkPolicy(path)) }
        // The demo's backend is on loopback: the company network's variables are not for it.
        var network = NetworkOptions.Resolved()
        if !options.demo {
            do throws(UsageError) {
                network = try options.network.resolve(environment: ProcessInfo.processInfo.environment)
            } catch {
                tool.exit(with: error)
            }
        }
        exit(await run(options, network: network))
    }

    static func run(_ options: ChatOptions, network: NetworkOptions.Resolved = NetworkOptions.Resolved()) async -> Int32 {
        let terminal = TerminalIO.live
        let screen = TerminalScreen(terminal: terminal)
        let directory = FileManager.default.currentDirectoryPath
        let interactive = options.message == nil && terminal.isInteractive
        let clock = ResolveKitClock.continuous
        let (interrupts, interrupt) = AsyncStream<Void>.makeStream()
        let approver: any ToolApprover
        do {
            // Before any backend starts, so a policy's mistakes are all the output.
            approver = try makeApprover(
                options, interactive: interactive, screen: screen, clock: clock, onInterrupt: { interrupt.yield() })
        } catch {
            return usageFailure("--approve: \(error.message)")
        }
        for warning in (approver as? PolicyApprover)?.warnings ?? [] {
            FileHandle.standardError.write(Data("\(warning)\n".utf8))
        }
        var demo: DemoBackend?
        let baseURL: String
        let apiKey: String?
        if options.demo {
            do {
                demo = try DemoBackend.start(directory: directory, logFile: DemoBackend.defaultLogFile(in: directory))
            } catch {
                FileHandle.standardError.write(Data("rk-chat: could not start the demo backend: \(error)\n".utf8))
                return 3
            }
            baseURL = demo!.server.baseURL
            apiKey = DemoBackend.apiKey
        } else {
            baseURL = options.baseURL ?? ProcessInfo.processInfo.environment["RESOLVEKIT_BASE_URL"] ?? ""
            apiKey = readAPIKey(options)
            guard !baseURL.isEmpty else {
                return usageFailure("no backend: pass --demo, or --base-url URL or RESOLVEKIT_BASE_URL")
            }
            guard CommandLineTool.isHTTPURL(baseURL), URL(string: baseURL) != nil else {
                return usageFailure("RESOLVEKIT_BASE_URL '\(baseURL)' is not an http:// or https:// URL")
            }
            guard apiKey?.isEmpty == false else {
                let source =
                    options.apiKeyFile.map { path in
                        var isFolder: ObjCBool = false
                        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                        return isFolder.boolValue ? "\(path) is a folder, not a file" : "the file \(path) is empty"
                    } ?? "RESOLVEKIT_API_KEY is not set"
                return usageFailure("no API key: \(source); pass --api-key-file PATH or set it")
            }
        }
        if options.approval == nil, !interactive {
            let notice =
                "rk-chat: no terminal to ask for approval, so calls that need it are declined; use --approve all, "
                + "--approve POLICY.json, or run interactively\n"
            FileHandle.standardError.write(Data(notice.utf8))
        }
        var dependencies = ResolveKitDependencies()
        dependencies.systemFunctions = SystemFunctionsConfiguration(
            allowedRoots: options.allowedRoots.isEmpty ? [directory] + (options.demo ? ["/var/log"] : []) : options.allowedRoots)
        let stateLocation: ResolveKitConfiguration.StateLocation =
            options.stateDirectory.map { .directory($0) } ?? (options.demo ? .inMemory : .automatic)
        var configuration = ResolveKitConfiguration(
            baseURL: URL(string: baseURL)!, apiKeyProvider: { apiKey }, functionPacks: [SystemFunctionsPack.self],
            dependencies: dependencies, approver: approver, stateLocation: stateLocation, appVersion: "1.0.0", clock: clock)
        configuration.auditTrail = options.auditLog.map { ApprovalAuditTrail(path: $0) }
        if let period = options.turnWatchdog { configuration.turnWatchdog = period }
        configuration.network = network.settings
        // The demo's backend is this process, on loopback: never through a proxy the environment names.
        if options.demo { configuration.network.proxy = .direct }
        let runtime = ResolveKitRuntime(configuration: configuration)
        var tracing: Task<Void, Never>?
        if let path = options.traceWire {
            do {
                let trace = try WireTrace(path: path, secrets: [apiKey ?? ""] + network.secrets)
                let tap = runtime.wireTap
                tracing = Task { await trace.write(tap) }
            } catch {
                return usageFailure("--trace-wire \(path): cannot write the file")
            }
        }
        let code: Int32
        if let message = options.message {
            code = await OneShot(runtime: runtime, screen: screen, showsHistory: options.showHistory).run(message)
        } else {
            code = await Conversation(
                runtime: runtime, screen: screen, terminal: terminal, approver: approver, interrupts: interrupts
            ).run()
        }
        await runtime.stop()
        await tracing?.value
        await demo?.stop()
        return code
    }

    /// The Linux pack's functions, which a policy may name.
    static let packRegistry = try? ResolveKitRegistry(functions: [], functionPacks: [SystemFunctionsPack.self])

    /// Prints every problem of the policy at `path` to stderr and a summary to stdout; 0 when it has no error,
    /// 1 when it has, 64 when it cannot be read.
    static func checkPolicy(_ path: String) -> Int32 {
        let problems: [PolicyApprover.Problem]
        do {
            problems = try PolicyApprover.check(contentsOf: URL(fileURLWithPath: path), functions: packRegistry)
        } catch {
            return usageFailure("--check-policy: \(error.message)")
        }
        for problem in problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
        let errors = problems.filter { $0.severity == .error }.count
        let warnings = problems.count - errors
        print("\(path): " + (errors == 0 ? "OK" : "\(errors) error\(errors == 1 ? "" : "s")")
            + (warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"))
        return errors == 0 ? 0 : 1
    }

    /// Reports a usage error found after parsing, as the parser reports its own; returns 64.
    static func usageFailure(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data(UsageError(message).report(for: ChatFlags.tool.name).utf8))
        return UsageError.exitCode
    }

    static func readAPIKey(_ options: ChatOptions) -> String? {
        if let path = options.apiKeyFile {
            return (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return ProcessInfo.processInfo.environment["RESOLVEKIT_API_KEY"]
    }

    /// The approver `--approve` asks for; a prompt calls `onInterrupt` when Ctrl-C declines at it.
    static func makeApprover(
        _ options: ChatOptions, interactive: Bool, screen: TerminalScreen, clock: ResolveKitClock,
        onInterrupt: @escaping @Sendable () -> Void
    ) throws(ResolveKitError) -> any ToolApprover {
        let prompt = TerminalApprover(screen: screen, clock: clock, onInterrupt: onInterrupt)
        switch options.approval ?? (interactive ? .prompt : .declineAll) {
        case .approveAll: return AutoApprover()
        case .declineAll where options.approval == nil:
            // Nobody declined: the model is told why no one could approve.
            return DenyAllApprover(reason: "No one could approve it: rk-chat has no terminal to ask")
        case .declineAll: return DenyAllApprover()
        case .policy(let path):
            return try PolicyApprover(
                contentsOf: URL(fileURLWithPath: path), functions: packRegistry, fallback: interactive ? prompt : nil)
        case .prompt: return prompt
        }
    }
}
