import Foundation
package import ResolveKitCLI
package import ResolveKitHTTP

/// The network flags a tool was given (``ResolveKitCLI/FlagGroup/network``), and how they become the
/// `NetworkSettings` it runs with.
///
/// Reading the command line is pure (``init(_:)``); ``resolve(environment:readFile:)`` then joins each setting with
/// its `RESOLVEKIT_…` variable (a flag wins over its variable, a variable over the default), checks that the
/// settings fit together, and reads the files that hold secrets. Every mistake is a ``ResolveKitCLI/UsageError``
/// naming the flag or variable it came from, and never quoting a secret.
package struct NetworkOptions: Sendable, Equatable {
    /// Each network flag given, by long name, with its values in order (a switch has one empty value).
    package private(set) var given: [String: [String]] = [:]

    /// No network flag.
    package init() {}

    /// The network flags of `parsed`; the parser has already checked each value's form.
    package init(_ parsed: ParsedCommandLine) {
        let names = Set(FlagGroup.network.flags.map(\.name))
        for (flag, value) in parsed.given where names.contains(flag.name) {
            given[flag.name, default: []].append(value ?? "")
        }
    }

    /// The network flags given, in the table's order: what `--demo` refuses.
    package var flagNames: [String] { FlagGroup.network.flags.map(\.name).filter { given[$0] != nil } }

    /// The settings these flags and `environment`'s variables describe, checked, with the secret files read.
    /// - Parameters:
    ///   - environment: the process's environment (`RESOLVEKIT_CA_FILE`, …).
    ///   - readFile: reads a file whole (the key's passphrase, the proxy's password, `--header @FILE`).
    /// - Throws: ``ResolveKitCLI/UsageError`` naming the flag or variable that is wrong and how to fix it.
    package func resolve(
        environment: [String: String],
        readFile: (String) throws -> [UInt8] = { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
    ) throws(UsageError) -> Resolved {
        let lookup = Lookup(options: self, environment: environment)
        var resolved = Resolved()
        try resolveTrust(lookup, into: &resolved)
        try resolveIdentity(lookup, readFile: readFile, into: &resolved)
        try resolvePins(lookup, into: &resolved)
        try resolveProxy(lookup, readFile: readFile, into: &resolved)
        try resolveHeaders(lookup, readFile: readFile, into: &resolved)
        try resolveTuning(lookup, into: &resolved)
        return resolved
    }

    /// What the options resolved to.
    package struct Resolved: Sendable {
        /// The settings for `ResolveKitConfiguration.network`.
        package var settings = NetworkSettings()
        /// The secrets read (the key's passphrase, the proxy's password, header values from files): what a log
        /// must redact.
        package var secrets: [String] = []
        /// The settings for a log line, without a secret: paths, the proxy's URL, header names, counts.
        package var summary: [String: String] = [:]

        /// The defaults: no flag, no variable.
        package init() {}
    }

    /// The seconds `--low-speed BYTES/SECONDS` accepts: at least one, at most an hour.
    static let lowSpeedSeconds = 1...3600

    private func resolveTuning(_ lookup: Lookup, into resolved: inout Resolved) throws(UsageError) {
        if let version = try lookup.text(.tlsMinimum) {
            resolved.settings.minimumTLSVersion = version.value == "1.3" ? .tls1_3 : .tls1_2
            resolved.summary["tls_min"] = version.value
        }
        if let version = try lookup.text(.httpVersion) {
            switch version.value {
            case "1.1": resolved.settings.httpVersion = .http1_1
            case "2": resolved.settings.httpVersion = .http2
            default: resolved.settings.httpVersion = .automatic
            }
            resolved.summary["http_version"] = version.value
        }
        if let timeout = try lookup.text(.connectTimeout), let seconds = Double(timeout.value) {
            resolved.settings.connectTimeout = .milliseconds(Int((seconds * 1000).rounded()))
            resolved.summary["connect_timeout"] = timeout.value
        }
        if let floor = try lookup.text(.lowSpeed) {
            let parts = floor.value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let bytes = Int(parts[0]), bytes >= 1, let seconds = Int(parts[1]),
                Self.lowSpeedSeconds.contains(seconds)
            else {
                throw UsageError(
                    "\(floor.source) expects BYTES/SECONDS, whole numbers of at least 1 (at most 3600 seconds), e.g. "
                        + "1/45, got '\(floor.value)'")
            }
            resolved.settings.lowSpeedLimit = .init(bytesPerSecond: bytes, duration: .seconds(seconds))
            resolved.summary["low_speed"] = floor.value
        }
    }
}
