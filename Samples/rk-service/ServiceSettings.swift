import Foundation
import ResolveKit
import ResolveKitCLI
import ResolveKitCLINetwork
import ResolveKitHTTP
import ResolveKitSystemFunctions
import ResolveKitTelemetry

/// Everything `rk-service` runs with, validated: the options joined with the environment and the files they name.
struct ServiceSettings: Sendable {
    var baseURL: URL
    var apiKey: String
    var policy: PolicyApprover
    var allowedRoots: [String]
    var stateLocation: ResolveKitConfiguration.StateLocation
    /// With `--state`, this replica's name (the lines without `user` get a session of their own per replica).
    var replicaName: String?
    /// The password in the Redis URL, if any, which no log line may show.
    var statePassword: String?
    var socketPath: String?
    /// Where every approval decision and call outcome is recorded, hash-chained.
    var auditLog: String?
    var logLevel: ResolveKitLogger.Level
    var drainTimeout: Duration
    var turnTimeout: Duration
    /// `--turn-watchdog`; `nil` keeps the runtime's.
    var turnWatchdog: Duration?
    var connectAttempts: Int
    /// The most sessions (users) open at once.
    var maxSessions: Int
    /// How long an unused session stays open; `nil` for ever.
    var idleClose: Duration?
    /// How the backend is reached: trust, client certificate, pins, proxy, headers (`--ca-file`, `--proxy`, …).
    var network = NetworkSettings()
    /// The network settings for the start's log line, without a secret.
    var networkSummary: [String: String] = [:]
    /// What no log line may show: the API key, the client key's passphrase, the proxy's password, header values
    /// read from files, the Redis password.
    var secrets: [String] { [apiKey] + networkSecrets + stateSecrets }
    /// The network's secrets, read from their files.
    var networkSecrets: [String] = []
    /// Where `/metrics` is served (`host:port`, checked); `nil` serves none.
    var metricsListen: String?

    /// The functions rk-service serves, which a policy may name.
    static let servedFunctions = try? ResolveKitRegistry(functions: [], functionPacks: [SystemFunctionsPack.self])

    /// What no log line may show besides the API key: the Redis password, as given and percent-decoded.
    var stateSecrets: [String] {
        guard let statePassword else { return [] }
        return [statePassword, statePassword.removingPercentEncoding ?? statePassword]
    }

    /// The longest Unix socket path `sockaddr_un` holds (108 bytes with the terminating NUL).
    static let maxSocketPathBytes = 107

    /// Validates `options` against `environment`, reading the key and policy files with `readFile`.
    /// - Throws: ``ServiceOptions/UsageError`` saying what is missing or wrong and how to fix it.
    static func resolve(
        _ options: ServiceOptions,
        environment: [String: String],
        readFile: (String) throws -> [UInt8] = { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
    ) throws(ServiceOptions.UsageError) -> ServiceSettings {
        typealias UsageError = ServiceOptions.UsageError
        // The flags' own files and the network's settings first: a wrong one is named even when the base URL or key
        // is missing.
        let network = try options.network.resolve(environment: environment, readFile: readFile)
        for root in options.allowedRoots {
            try ParsedCommandLine.check(root, kind: ServiceFlags.allowedRoot.kind, naming: "--allowed-root ")
        }
        if let auditLog = options.auditLog {
            try ParsedCommandLine.check(auditLog, kind: ServiceFlags.auditLog.kind, naming: "--audit-log ")
        }
        guard let urlText = options.baseURL ?? environment["RESOLVEKIT_BASE_URL"] else {
            throw UsageError(message: "no backend: pass --base-url URL or set RESOLVEKIT_BASE_URL")
        }
        guard let baseURL = URL(string: urlText), let scheme = baseURL.scheme, ["http", "https"].contains(scheme),
            baseURL.host != nil
        else { throw UsageError(message: "the base URL must be an http(s) URL, got '\(urlText)'") }

        let apiKey = try resolveAPIKey(options, environment: environment, readFile: readFile)
        let policy: PolicyApprover
        if let path = options.policyFile {
            do {
                policy = try PolicyApprover(jsonBytes: try readFile(path), sourceName: path, functions: servedFunctions)
            } catch let error as ResolveKitError {
                throw UsageError(message: "cannot use the policy file \(path): \(error.message)")
            } catch {
                throw UsageError(message: "cannot read the policy file \(path)")
            }
        } else {
            policy = PolicyApprover(rules: [:], defaultRule: .deny)
        }

        let levelName = options.logLevel ?? environment["RESOLVEKIT_LOG_LEVEL"] ?? "info"
        guard let level = ResolveKitLogger.Level.allCases.first(where: { $0.description == levelName.lowercased() })
        else {
            throw UsageError(message: "--log-level must be trace, debug, info, warning or error, got '\(levelName)'")
        }

        if let socketPath = options.socketPath {
            guard !socketPath.isEmpty, socketPath.utf8.count <= maxSocketPathBytes else {
                throw UsageError(message: "--socket needs a path of 1 to \(maxSocketPathBytes) bytes")
            }
        }
        if let listen = options.metricsListen {
            do {
                try MetricsEndpoint.validate(listen: listen)
            } catch {
                throw UsageError(message: "--metrics-listen: \(error.message)")
            }
        }
        do {
            _ = try TelemetryConfiguration(environment: environment, defaultServiceName: "rk-service")
        } catch {
            throw UsageError(message: error.message)
        }
        let stateDirectory =
            options.stateDirectory ?? environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
        var stateLocation: ResolveKitConfiguration.StateLocation = stateDirectory.map { .directory($0) } ?? .automatic
        let redis = try redisState(options, environment: environment)
        if let redis {
            guard options.stateDirectory == nil else {
                throw UsageError(
                    message: "--state and --state-dir exclude each other: state lives in Redis or in a folder")
            }
            stateLocation = .redis(redis, prefix: options.statePrefix ?? "rk:rk-service")
        }
        return ServiceSettings(
            baseURL: baseURL, apiKey: apiKey, policy: policy, allowedRoots: options.allowedRoots,
            stateLocation: stateLocation,
            replicaName: redis.map { _ in ReplicaSettings(name: options.replicaName).name },
            statePassword: redis?.password.flatMap { $0.isEmpty ? nil : $0 },
            socketPath: options.socketPath,
            auditLog: options.auditLog, logLevel: level, drainTimeout: .seconds(options.drainTimeoutSeconds),
            turnTimeout: .seconds(options.turnTimeoutSeconds),
            turnWatchdog: options.turnWatchdogSeconds.map { .seconds($0) }, connectAttempts: options.connectAttempts,
            maxSessions: options.maxSessions,
            idleClose: options.idleCloseSeconds == 0 ? nil : .seconds(options.idleCloseSeconds),
            network: network.settings, networkSummary: network.summary, networkSecrets: network.secrets,
            metricsListen: options.metricsListen)
    }

    /// `--state`, else `RESOLVEKIT_STATE_URL`: a `redis://` or `unix://` URL, or `nil` for a state folder.
    private static func redisState(_ options: ServiceOptions, environment: [String: String])
        throws(ServiceOptions.UsageError) -> URL?
    {
        guard let text = options.stateURL ?? environment["RESOLVEKIT_STATE_URL"] else {
            if options.statePrefix != nil || options.replicaName != nil {
                throw ServiceOptions.UsageError(message: "--state-prefix and --replica-name need --state URL")
            }
            return nil
        }
        let scheme = text.prefix { $0 != ":" }.lowercased()
        guard scheme == "redis" || scheme == "unix", let url = URL(string: text), url.host != nil || scheme == "unix"
        else {
            throw ServiceOptions.UsageError(
                message: "--state must be a Redis URL: redis://[user:password@]host[:port][/db] or "
                    + "unix:///path/redis.sock?db=N")
        }
        if let prefix = options.statePrefix, prefix.isEmpty || prefix.contains(where: { "{}*?[]\\ ".contains($0) }) {
            throw ServiceOptions.UsageError(
                message: "--state-prefix must be non-empty, without spaces, braces or glob characters, e.g. rk:my-app")
        }
        return url
    }

    private static func resolveAPIKey(
        _ options: ServiceOptions, environment: [String: String], readFile: (String) throws -> [UInt8]
    ) throws(ServiceOptions.UsageError) -> String {
        if let path = options.apiKeyFile {
            let bytes: [UInt8]
            do {
                bytes = try readFile(path)
            } catch {
                throw ServiceOptions.UsageError(message: "cannot read the API key file \(path)")
            }
            let key = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !key.isEmpty, !key.contains(where: \.isNewline) else {
                throw ServiceOptions.UsageError(message: "the API key file \(path) must hold the key on one line")
            }
            return key
        }
        guard let key = environment["RESOLVEKIT_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty
        else {
            throw ServiceOptions.UsageError(message: "no API key: pass --api-key-file PATH or set RESOLVEKIT_API_KEY")
        }
        return key
    }
}
