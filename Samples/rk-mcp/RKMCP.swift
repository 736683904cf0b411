import Dispatch
import Foundation
import ResolveKitCLI
import ResolveKitMCP
import ResolveKitSystemFunctions
import ResolveKitTelemetry
import ResolveKitTerminalCore
import ResolveKitTools
import Synchronization

/// `rk-mcp`: the Linux function pack (and `countdown`) over MCP on stdio.
@main
struct RKMCP {
    static func main() async {
        let tool = MCPFlags.tool
        let parsed = tool.parseOrExit(version: ResolveKitVersion.current)
        let options: MCPOptions
        do {
            options = try MCPOptions.make(parsed)
        } catch {
            tool.exit(with: error)
        }
        let telemetry: Telemetry
        let server: MCPServer
        var metrics: MetricsEndpoint?
        do throws(ResolveKitError) {
            telemetry = try makeTelemetry()
            var configuration = try configuration(options)
            configuration.telemetry = telemetry
            server = try MCPServer(configuration: configuration)
            if let listen = options.metricsListen { metrics = try startMetrics(listen, telemetry) }
        } catch {
            tool.exit(with: UsageError(error.message))
        }
        let exporting = Task { await telemetry.run() }
        let serving = Task { await server.serve() }
        let interrupted = Interruption()
        let terminations = cancelOnTermination(serving, interrupted: interrupted)
        await serving.value
        // What the last calls recorded is exported before the process exits.
        await telemetry.shutdown(timeout: .seconds(5))
        await exporting.value
        metrics?.stop()
        withExtendedLifetime(terminations) {}
        exit(interrupted.happened.load(ordering: .relaxed) ? 130 : 0)
    }

    /// Telemetry as the `OTEL_*` variables say, exporting over plain `http://` (rk-mcp links no libcurl).
    static func makeTelemetry() throws(ResolveKitError) -> Telemetry {
        do throws(TelemetryError) {
            let settings = try TelemetryConfiguration(
                environment: ProcessInfo.processInfo.environment, defaultServiceName: "rk-mcp")
            for warning in settings.warnings {
                FileHandle.standardError.write(Data("level=warning msg=\"\(warning)\"\n".utf8))
            }
            if [settings.traces, settings.metrics].contains(where: { $0?.encoding == .grpc }) {
                throw TelemetryError(
                    .invalidConfiguration,
                    "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: rk-mcp exports over HTTP/1.1 without libcurl; use "
                        + "http/protobuf (a collector's port 4318)")
            }
            return try Telemetry(configuration: settings, transport: PlainHTTPTransport())
        } catch {
            throw ResolveKitError(.invalidConfiguration, error.message, underlying: error)
        }
    }

    /// `/metrics` on `listen`, announced on stderr with the address it got.
    static func startMetrics(_ listen: String, _ telemetry: Telemetry) throws(ResolveKitError) -> MetricsEndpoint {
        do {
            let endpoint = try MetricsEndpoint.start(listen: listen, registry: telemetry.registry)
            let line = "level=info msg=\"serving metrics\" address=\(endpoint.address)\n"
            FileHandle.standardError.write(Data(line.utf8))
            return endpoint
        } catch {
            let reason = error.errno.map { " (\(String(cString: strerror($0))))" } ?? ""
            throw ResolveKitError(
                .invalidConfiguration, "--metrics-listen: \(error.message)\(reason)", underlying: error)
        }
    }

    /// SIGTERM, or SIGINT (Ctrl-C where rk-mcp runs in a terminal), cancels `task`: running calls are then
    /// cancelled and answered before the process exits; `interrupted` records a SIGINT. Made outside the main actor,
    /// as the handlers run on a dispatch queue.
    nonisolated static func cancelOnTermination(
        _ task: Task<Void, Never>, interrupted: Interruption
    ) -> [any DispatchSourceSignal] {
        // A client that disappears closes our stdout: writing then fails with EPIPE instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        return [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                if number == SIGINT { interrupted.happened.store(true, ordering: .relaxed) }
                task.cancel()
            }
            source.resume()
            return source
        }
    }

    /// The pack and `countdown`, the approver the options name, the roots and the audit trail. Serving your own
    /// registry is the same with `functions: ResolveKitAutoRegistry.functions`.
    static func configuration(_ options: MCPOptions) throws(ResolveKitError) -> MCPServer.Configuration {
        var dependencies = ResolveKitDependencies()
        dependencies.systemFunctions = SystemFunctionsConfiguration(allowedRoots: options.allowedRoots)
        var approver: any ToolApprover
        switch options.approval {
        case .all: approver = AutoApprover()
        case .none: approver = DenyAllApprover(reason: "rk-mcp was started without approval for this function")
        case .prompt:
            guard let terminal = TerminalIO.controllingTerminal() else {
                throw ResolveKitError(
                    .invalidConfiguration,
                    "--approve prompt needs a controlling terminal (/dev/tty), and this process has none")
            }
            approver = TerminalApprover(screen: TerminalScreen(terminal: terminal))
        }
        if let path = options.policy {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ResolveKitError(.invalidConfiguration, "--policy \(path) does not exist or cannot be read")
            }
            let served = try? ResolveKitRegistry(functions: [Countdown.self], functionPacks: [SystemFunctionsPack.self])
            approver = try PolicyApprover(contentsOf: URL(fileURLWithPath: path), functions: served, fallback: approver)
        }
        return MCPServer.Configuration(
            functions: [Countdown.self], functionPacks: [SystemFunctionsPack.self], approver: approver,
            dependencies: dependencies, name: "rk-mcp",
            auditTrail: options.auditLog.map { ApprovalAuditTrail(path: $0) },
            logger: ResolveKitLogger(label: "rk-mcp", minimumLevel: .warning) { record in
                // stdout belongs to the protocol: logs go to stderr.
                FileHandle.standardError.write(Data("level=\(record.level) msg=\"\(record.message)\"\n".utf8))
            })
    }
}

/// Whether a SIGINT ended the serving: the exit code is then 130.
final class Interruption: Sendable {
    let happened = Atomic(false)
}
