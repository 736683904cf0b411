import Foundation
import Glibc
import ResolveKitChildProcess
import Synchronization

/// A program users run beside the library (nginx, redis-server, promtool, openssl, a Python package) that some
/// tests run for real instead of imitating it.
///
/// Without the program, `swift test` skips those tests with one line naming the install command, so the README's
/// two commands keep working on a fresh machine; with `CI` set in the environment the tests run anyway and fail
/// with that line, so a CI that forgot to install it cannot pass by skipping.
///
/// ```swift
/// @Test(.enabled(if: ExternalProgram.nginx.shouldRun, Comment(rawValue: ExternalProgram.nginx.skipNote)))
/// func aTurnThroughTheProxy() async throws {
///     let nginx = try ExternalProgram.nginx.require()
///     …
/// }
/// ```
public struct ExternalProgram: Sendable, CustomStringConvertible {
    /// The program's name, as a person types it.
    public let name: String
    /// The command that installs it on Debian or Ubuntu, e.g. `apt-get install -y nginx`.
    public let install: String
    /// Where to look, in order: absolute paths, or names searched in `PATH` and the system's `sbin` folders.
    let candidates: [String]
    /// Arguments run with the found program that must exit 0 for it to count (a Python package's import).
    let probe: [String]?

    /// A program found by `candidates`; with `probe`, it counts only when running it with those arguments exits 0.
    public init(name: String, install: String, candidates: [String]? = nil, probe: [String]? = nil) {
        self.name = name
        self.install = install
        self.candidates = candidates ?? [name]
        self.probe = probe
    }

    /// `nginx`, from Debian's `nginx` package.
    public static let nginx = ExternalProgram(name: "nginx", install: "apt-get install -y nginx")
    /// `openssl`, from Debian's `openssl` package.
    public static let openssl = ExternalProgram(name: "openssl", install: "apt-get install -y openssl")
    /// `tinyproxy`, a forward proxy with Basic authentication and `CONNECT`, from Debian's `tinyproxy` package.
    public static let tinyproxy = ExternalProgram(name: "tinyproxy", install: "apt-get install -y tinyproxy")
    /// `redis-server`, from Debian's `redis-server` package.
    public static let redisServer = ExternalProgram(name: "redis-server", install: "apt-get install -y redis-server")
    /// `promtool`, from Debian's `prometheus` package.
    public static let promtool = ExternalProgram(name: "promtool", install: "apt-get install -y prometheus")
    /// `bash`, which loads the tools' bash completions.
    public static let bash = ExternalProgram(name: "bash", install: "apt-get install -y bash")
    /// `zsh`, which loads the tools' zsh completions.
    public static let zsh = ExternalProgram(name: "zsh", install: "apt-get install -y zsh")
    /// `groff`, from Debian's `groff-base` package, which `man` renders the tools' manual pages with.
    public static let groff = ExternalProgram(name: "groff", install: "apt-get install -y groff-base")
    /// `python3` with PyPI's `opentelemetry-proto` (and the `protobuf` it needs), to decode OTLP exports.
    public static let opentelemetryProto = ExternalProgram(
        name: "opentelemetry-proto", install: "python3 -m pip install opentelemetry-proto", candidates: ["python3"],
        probe: ["-c", "import opentelemetry.proto.collector.trace.v1.trace_service_pb2, google.protobuf.json_format"])
    /// `python3` with PyPI's `grpcio` and `opentelemetry-proto`, to run an OTLP/gRPC collector.
    public static let grpcio = ExternalProgram(
        name: "grpcio", install: "python3 -m pip install grpcio opentelemetry-proto", candidates: ["python3"],
        probe: ["-c", "import grpc, opentelemetry.proto.collector.trace.v1.trace_service_pb2_grpc"])
    /// `python3` with PyPI's `prometheus-client`, whose OpenMetrics parser is strict about the format.
    public static let prometheusClient = ExternalProgram(
        name: "prometheus-client", install: "python3 -m pip install prometheus-client", candidates: ["python3"],
        probe: ["-c", "import prometheus_client.openmetrics.parser"])

    /// The absolute path of the program, or `nil` when it is not installed (or its probe fails). Found once per
    /// process: a probe starts a program (Python importing grpcio takes half a second) on the calling thread, which in
    /// a test is one of the cooperative pool's two.
    public var path: String? {
        if let known = Self.found.withLock({ $0[name] }) { return known }
        let path = search()
        Self.found.withLock { $0[name] = .some(path) }
        return path
    }

    private static let found = Mutex<[String: String?]>([:])

    private func search() -> String? {
        for candidate in candidates {
            guard let found = Self.locate(candidate) else { continue }
            guard let probe else { return found }
            if Self.exitsZero(found, probe) { return found }
        }
        return nil
    }

    /// Whether tests that need it should run: it is installed, or this is CI (where a missing program fails).
    public var shouldRun: Bool { isCI || path != nil }

    /// The line a skipped test shows: what is missing and how to install it.
    public var skipNote: String { "needs \(name): \(install)" }

    /// The program's path.
    /// - Throws: ``Missing`` naming the program and its install command.
    public func require() throws(Missing) -> String {
        guard let path else { throw Missing(program: self) }
        return path
    }

    /// `nginx (apt-get install -y nginx)`.
    public var description: String { "\(name) (\(install))" }

    /// A program a test needs is not installed.
    public struct Missing: Error, Sendable, CustomStringConvertible {
        /// The program.
        public let program: ExternalProgram
        /// `nginx is not installed; install it with: apt-get install -y nginx`.
        public var description: String { "\(program.name) is not installed; install it with: \(program.install)" }
    }

    /// Whether the `CI` environment variable is set to anything but `false` or `0`.
    public var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    private static func locate(_ candidate: String) -> String? {
        let manager = FileManager.default
        if candidate.hasPrefix("/") { return manager.isExecutableFile(atPath: candidate) ? candidate : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/local/sbin"]
        for folder in folders where manager.isExecutableFile(atPath: folder + "/" + candidate) {
            return folder + "/" + candidate
        }
        return nil
    }

    private static func exitsZero(_ executable: String, _ arguments: [String]) -> Bool {
        guard
            let child = try? ChildProcess.spawn(
                executable, arguments: arguments, standardInput: .nullDevice, standardOutput: .nullDevice,
                standardError: .nullDevice)
        else { return false }
        guard let termination = child.waitUntilExit(timeout: .seconds(30)) else {
            child.send(SIGKILL)
            return false
        }
        return termination.reason == .exit && termination.status == 0
    }
}
