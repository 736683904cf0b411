import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitRedis
import ResolveKitTesting
import Synchronization

/// A real `redis-server` for one suite: a free loopback port (IPv4 and IPv6) and a Unix socket, AOF on, no RDB
/// snapshots, its files in a temporary folder; stopped (and the folder removed) by ``stop()``.
final class RedisTestServer: Sendable {
    /// The TCP port.
    let port: Int
    /// The folder holding the config, the AOF and the socket.
    let directory: String
    private let executable: String
    private let child: Mutex<ChildProcess?>

    /// The Unix socket path.
    var socketPath: String { directory + "/redis.sock" }
    /// `redis://127.0.0.1:<port>`.
    var url: String { "redis://127.0.0.1:\(port)" }

    private init(executable: String, port: Int, directory: String) {
        self.executable = executable
        self.port = port
        self.directory = directory
        self.child = Mutex(nil)
    }

    /// Starts a server; `extraConfig` lines are appended to its config file (ACL users, renamed commands).
    static func start(extraConfig: [String] = []) async throws -> RedisTestServer {
        let executable = try ExternalProgram.redisServer.require()
        let directory =
            FileManager.default.temporaryDirectory.path + "/rk-redis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = RedisTestServer(executable: executable, port: freePort(), directory: directory)
        let config =
            [
                "port \(server.port)", "bind 127.0.0.1 -::1", "save \"\"", "appendonly yes", "appendfsync always",
                "dir \(directory)", "unixsocket \(server.socketPath)", "unixsocketperm 700", "daemonize no",
                "logfile \(directory)/redis.log", "protected-mode no",
            ] + extraConfig
        try config.joined(separator: "\n").write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
        try await server.launch()
        return server
    }

    /// Starts the process on the same port and folder (after ``stop(keepingFiles:)`` or a crash).
    func launch() async throws {
        let process = try ChildProcess.spawn(
            executable, arguments: [directory + "/redis.conf"], standardInput: .nullDevice,
            standardOutput: .nullDevice, standardError: .nullDevice)
        child.withLock { $0 = process }
        let ready = await pollUntil(timeout: .seconds(10)) { Self.accepts(port: port) || !process.isRunning }
        guard ready, process.isRunning else {
            let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
            process.send(SIGKILL)
            throw RedisServerFailure(description: "redis-server did not start on port \(port): \(log.suffix(800))")
        }
    }

    /// Stops the server with SIGTERM (it writes its AOF), waiting for it; removes the folder unless told not to.
    func stop(keepingFiles: Bool = false) {
        let process = child.withLock { child in
            defer { child = nil }
            return child
        }
        if let process {
            process.send(SIGCONT)
            process.terminate()
            if process.waitUntilExit(timeout: .seconds(10)) == nil {
                process.send(SIGKILL)
                _ = process.waitUntilExit(timeout: .seconds(5))
            }
        }
        if !keepingFiles { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Sends `signal` to the server (SIGSTOP to freeze it, SIGCONT to let it go on).
    func signal(_ signal: Int32) {
        child.withLock { $0?.send(signal) }
    }

    /// A client of this server on the continuous clock, unless another clock is given.
    func client(
        url: String? = nil, clientName: String? = nil, commandTimeout: Duration = .seconds(5),
        protocolVersion: RedisConfiguration.ProtocolVersion = .resp3
    ) throws -> RedisClient {
        var configuration = try RedisConfiguration(url: url ?? self.url, clientName: clientName)
        configuration.commandTimeout = commandTimeout
        configuration.connectTimeout = min(commandTimeout, configuration.connectTimeout)
        configuration.protocolVersion = protocolVersion
        return RedisClient(configuration: configuration)
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port nothing listens on now: bound to port 0, read back, released.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                return getsockname(fd, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The test server could not start.
struct RedisServerFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs `body` with a fresh server, stopping it on every exit path.
func withRedisServer<T>(
    extraConfig: [String] = [], _ body: (RedisTestServer) async throws -> T
) async throws -> T {
    let server = try await RedisTestServer.start(extraConfig: extraConfig)
    do {
        let result = try await body(server)
        server.stop()
        return result
    } catch {
        server.stop()
        throw error
    }
}

/// Checks an async `condition` every 5 ms until it holds or `timeout` passes, for a real server's state.
func eventually(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while await !condition() {
        guard clock.now < deadline, !Task.isCancelled else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// What `body` returned or threw, so a test can start it with `async let` and look at the error later.
func outcome<T: Sendable>(_ body: () async throws(RedisError) -> T) async -> Result<T, RedisError> {
    do throws(RedisError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
