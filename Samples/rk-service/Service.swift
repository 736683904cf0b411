import Foundation
import Glibc
import ResolveKit
import ResolveKitCLINetwork
import ResolveKitSystemFunctions
import ResolveKitTelemetry

/// The service's lifetime: connect, report ready, answer requests until a signal (or the end of stdin) or the loss
/// of the backend, then drain and report how it ended.
struct Service {
    /// Why the service stops.
    enum StopReason: Sendable {
        case signal(Int32)
        case inputEnded
        case backendLost(ResolveKitError)
    }

    let settings: ServiceSettings
    let environment: [String: String]

    func run() async -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        let signals = SignalWatcher([SIGTERM, SIGINT])
        let structuredLog = StructuredLog(secrets: settings.secrets)
        let log = structuredLog.logger(label: "rk-service", minimumLevel: settings.logLevel)
        var configuration = makeConfiguration(
            logger: structuredLog.logger(label: "resolvekit", minimumLevel: settings.logLevel))
        let telemetry: Telemetry
        do {
            telemetry = try configuration.makeTelemetry(serviceName: "rk-service", environment: environment)
        } catch {
            log.error("cannot set up telemetry", metadata: ["reason": error.message])
            return .usage
        }
        configuration.telemetry = telemetry
        // Spans are exported while the service runs, and what is queued when it stops is exported before it exits.
        async let exporting: Void = telemetry.run()
        let code = await run(configuration, telemetry: telemetry, signals: signals, log: log)
        // The drain flushed already, within --drain-timeout; what is left gets a short last try, so a collector
        // that is down keeps the whole stop within the unit's TimeoutStopSec (20 s).
        await telemetry.shutdown(timeout: .seconds(2))
        await exporting
        return code
    }

    private func run(
        _ configuration: ResolveKitConfiguration, telemetry: Telemetry, signals: SignalWatcher, log: ResolveKitLogger
    ) async -> ExitCode {
        let notifier = SystemdNotifier(environment: environment)
        guard let registry = try? ResolveKitRegistry(functionPacks: configuration.functionPacks),
            !registry.functionNames.isEmpty
        else {
            log.error("the system function pack was refused; nothing to expose")
            return .internalFailure
        }
        var metrics: MetricsEndpoint?
        if let listen = settings.metricsListen {
            do {
                metrics = try MetricsEndpoint.start(listen: listen, registry: telemetry.registry)
                log.info("serving metrics", metadata: ["address": metrics?.address ?? listen, "path": "/metrics"])
            } catch {
                log.error(
                    "cannot serve metrics",
                    metadata: ["flag": "--metrics-listen", "address": listen, "reason": error.description])
                return .usage
            }
        }
        defer { metrics?.stop() }
        let host = ResolveKitHost(
            configuration: configuration,
            options: .init(maxOpenSessions: settings.maxSessions, idleTimeout: settings.idleClose))
        let source: any RequestSource
        do {
            source = try settings.socketPath.map { try UnixSocketSource(path: $0) } ?? StandardInputSource()
        } catch {
            log.error(
                "cannot serve requests",
                metadata: ["flag": "--socket", "path": settings.socketPath ?? "", "reason": "\(error)"])
            return .usage
        }
        var starting = settings.networkSummary.merging([
            "base_url": settings.baseURL.absoluteString, "functions": "\(registry.functionNames.count)",
            "requests": source.summary, "allowed_roots": settings.allowedRoots.joined(separator: ":"),
        ]) { $1 }
        if let replica = settings.replicaName { starting["replica"] = replica }
        if case .redis(let url, let prefix) = settings.stateLocation {
            starting["state"] = "redis \(url.host ?? url.path)\(url.port.map { ":\($0)" } ?? "") \(prefix)"
        }
        log.info("starting", metadata: starting)
        notifier.notify("STATUS=Connecting to \(settings.baseURL.host ?? "the backend")")

        let sharedKey = RequestHandler.sharedKey(settings)
        switch await Self.start(host, sharedKey: sharedKey, signals: signals) {
        case .failure(let failure):
            source.stop()
            return Self.report(failure.error, log: log, settings: settings)
        case .success(let received?):
            log.info("stopping before ready", metadata: ["signal": SignalWatcher.name(received)])
            notifier.notify("STOPPING=1")
            source.stop()
            await host.drain(timeout: .zero)
            return .clean
        case .success(nil):
            break
        }
        let shared: ResolveKitRuntime
        do {
            shared = try await host.session(for: sharedKey)
        } catch {
            source.stop()
            return Self.report(error, log: log, settings: settings)
        }
        let handler = RequestHandler(
            host: host, sharedKey: sharedKey, turnTimeout: settings.turnTimeout, log: log, tracer: telemetry.tracer)
        source.start()
        notifier.notify("READY=1\nSTATUS=Serving requests on \(source.summary)")
        log.info("ready", metadata: ["session_id": shared.sessionID ?? "-", "requests": source.summary])

        let reason = await withTaskGroup(of: StopReason?.self) { group -> StopReason in
            group.addTask { await Self.serve(source, handler) }
            group.addTask { await signals.next().map(StopReason.signal) }
            group.addTask { await Self.watch(shared, log: log, notifier: notifier) }
            var first: StopReason?
            while first == nil, let next = await group.next() { first = next }
            let reason = first ?? .inputEnded
            source.stop()
            handler.stopAccepting()
            notifier.notify("STOPPING=1\nSTATUS=Draining")
            log.info("draining", metadata: ["reason": Self.describe(reason), "timeout": "\(settings.drainTimeout)"])
            await host.drain(timeout: settings.drainTimeout)
            group.cancelAll()
            return reason
        }
        log.info("stopped", metadata: ["reason": Self.describe(reason), "session_id": shared.sessionID ?? "-"])
        if case .backendLost(let error) = reason { return Self.exitCode(for: error) }
        return .clean
    }

    /// Opens the shared session (registering the functions) unless a signal comes first.
    /// - Returns: `.success(nil)` when active, `.success(signal)` when a signal came first, `.failure` with the reason.
    static func start(_ host: ResolveKitHost, sharedKey: String, signals: SignalWatcher) async
        -> Result<Int32?, StartFailure>
    {
        await withTaskGroup(of: Result<Int32?, StartFailure>?.self) { group in
            group.addTask {
                do throws(ResolveKitError) {
                    _ = try await host.session(for: sharedKey)
                    return .success(nil)
                } catch {
                    return .failure(StartFailure(error: error))
                }
            }
            group.addTask { await signals.next().map { .success($0) } }
            let first = await group.next().flatMap { $0 } ?? .success(nil)
            group.cancelAll()
            return first
        }
    }

    /// Why the runtime did not start.
    struct StartFailure: Error {
        var error: ResolveKitError
    }

    /// Logs why the service could not start, with a network cause in words (`cause="untrusted certificate"`) and
    /// the flag that changes it, and chooses the exit code (``exitCode(for:)``).
    static func report(_ error: ResolveKitError, log: ResolveKitLogger, settings: ServiceSettings) -> ExitCode {
        var metadata = ["code": error.code.rawValue, "reason": error.message]
        if let failure = NetworkFailure(error) {
            metadata["cause"] = failure.words
            metadata["fix"] = failure.fix
        }
        let code = exitCode(for: error)
        if code == .stateUnavailable { metadata["flag"] = settings.replicaName == nil ? "--state-dir" : "--state" }
        let what =
            code != .stateUnavailable ? "cannot connect"
            : settings.replicaName == nil ? "cannot use the state folder" : "cannot use Redis"
        log.error(what, metadata: metadata)
        return code
    }

    /// A state folder (or Redis) that another process holds or that cannot be used is a local problem (73); a
    /// backend that could not be reached, or a network that refused, 3; a backend that refused this host, 69.
    static func exitCode(for error: ResolveKitError) -> ExitCode {
        switch error.code {
        case .stateLocked, .stateStore, .keyOwnedElsewhere: .stateUnavailable
        case .unreachable: .unreachable
        default: NetworkFailure(error) == nil ? .unavailable : .unreachable
        }
    }

    /// Answers every line of `source` concurrently (the handler keeps each user's order); returns when the input
    /// ended and every answer was written, or when cancelled (in-flight turns then answer with what they have).
    static func serve(_ source: any RequestSource, _ handler: RequestHandler) async -> StopReason? {
        await withTaskGroup(of: Void.self) { group in
            for await line in source.lines {
                let answer = handler.submit(line)
                group.addTask {
                    let response = await withTaskCancellationHandler { await answer.value } onCancel: { answer.cancel() }
                    line.reply.send(response.line)
                }
            }
        }
        return Task.isCancelled ? nil : .inputEnded
    }

    static func describe(_ reason: StopReason) -> String {
        switch reason {
        case .signal(let number): SignalWatcher.name(number)
        case .inputEnded: "end of input"
        case .backendLost(let error): "backend lost: \(error.message)"
        }
    }
}
