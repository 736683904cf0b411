import Foundation
import Glibc
import ResolveKitChildProcess
import Synchronization

/// A real `redis-server` (Debian's package) for a test or a benchmark: a free loopback port (IPv4 and IPv6) and a
/// Unix socket, AOF on with an fsync per write, no RDB snapshots, its files in a temporary folder. It can be killed
/// and started again on the same port and files (Redis reads its AOF back), frozen with SIGSTOP, and is stopped
/// (the folder removed) by ``stop(keepingFiles:)``.
package final class RedisServerProcess: Sendable {
    /// The TCP port.
    package let port: Int
    /// The folder holding the config, the AOF, the log and the socket.
    package let directory: String
    private let executable: String
    private let child: Mutex<ChildProcess?>

    /// The Unix socket path.
    package var socketPath: String { directory + "/redis.sock" }
    /// `redis://127.0.0.1:<port>`.
    package var url: String { "redis://127.0.0.1:\(port)" }

    private init(executable: String, port: Int, directory: String) {
        self.executable = executable
        self.port = port
        self.directory = directory
        self.child = Mutex(nil)
    }

    /// Starts a server; `extraConfig` lines are appended to its config file (ACL users, cluster mode). A free port
    /// can be taken by another process before the server binds it: then it starts again on another (five tries).
    /// - Throws: ``ExternalProgram/Missing`` without `redis-server`; ``FixtureError`` with its log when it does not
    ///   listen within 10 s.
    package static func start(extraConfig: [String] = [], fsync: String = "always") async throws -> RedisServerProcess {
        let executable = try ExternalProgram.redisServer.require()
        for _ in 1..<5 {
            do {
                return try await start(executable, extraConfig: extraConfig, fsync: fsync)
            } catch let error as FixtureError where error.description.contains("Address already in use") {
                continue
            }
        }
        return try await start(executable, extraConfig: extraConfig, fsync: fsync)
    }

    private static func start(_ executable: String, extraConfig: [String], fsync: String) async throws
        -> RedisServerProcess
    {
        let directory =
            FileManager.default.temporaryDirectory.path + "/rk-redis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let server = RedisServerProcess(executable: executable, port: freeLoopbackPort(), directory: directory)
        let config =
            [
                "port \(server.port)", "bind 127.0.0.1 -::1", "save \"\"", "appendonly yes", "appendfsync \(fsync)",
                "dir \(directory)", "unixsocket \(server.socketPath)", "unixsocketperm 700", "daemonize no",
                "logfile \(directory)/redis.log", "protected-mode no", "maxmemory-policy noeviction",
            ] + extraConfig
        try config.joined(separator: "\n").write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
        do {
            try await server.launch()
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    /// Starts the process on the same port and folder (after ``kill()``, ``stop(keepingFiles:)`` or a crash): it
    /// reads its AOF back before it answers.
    package func launch() async throws {
        let process = try ChildProcess.spawn(
            executable, arguments: [directory + "/redis.conf"], standardInput: .nullDevice,
            standardOutput: .nullDevice, standardError: .nullDevice)
        child.withLock { $0 = process }
        // A server that died fails at once; a live one gets a minute, for a machine busy with a whole parallel
        // test run, where checking took over ten seconds.
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        var ready = false
        while !ready, process.isRunning, ContinuousClock.now < deadline, !Task.isCancelled {
            ready = await Self.answers(port: port)
            if !ready { try? await Task.sleep(for: .milliseconds(10)) }
        }
        guard ready, process.isRunning else {
            process.send(SIGKILL)
            throw FixtureError("redis-server did not start on port \(port): \(log.suffix(800))")
        }
    }

    /// Kills the server with SIGKILL, as a crash would, keeping its files for ``launch()``.
    package func kill() async {
        let process = child.withLock { child in
            defer { child = nil }
            return child
        }
        process?.send(SIGKILL)
        if let process { _ = await Self.waitForExit(process, timeout: .seconds(10)) }
    }

    /// Stops the server with SIGTERM (it writes its AOF), waiting for it; removes the folder unless told not to.
    package func stop(keepingFiles: Bool = false) async {
        let process = child.withLock { child in
            defer { child = nil }
            return child
        }
        if let process {
            process.send(SIGCONT)
            process.terminate()
            if !(await Self.waitForExit(process, timeout: .seconds(10))) {
                process.send(SIGKILL)
                _ = await Self.waitForExit(process, timeout: .seconds(5))
            }
        }
        if !keepingFiles { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Waits for `process` to end with the task sleeping, never blocking a thread; `false` when it did not in time.
    private static func waitForExit(_ process: ChildProcess, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning, ContinuousClock.now < deadline {
            await sleepThroughCancellation(for: .milliseconds(5))
        }
        guard !process.isRunning else { return false }
        _ = process.waitUntilExit()
        return true
    }

    /// Sends `signal` to the server (SIGSTOP to freeze it, SIGCONT to let it go on).
    package func signal(_ signal: Int32) {
        child.withLock { $0?.send(signal) }
    }

    /// The server's log.
    package var log: String { (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? "" }

    /// A port nothing listens on now: bound to port 0, read back, released.
    package static func freePort() -> Int { freeLoopbackPort() }

    /// Whether the server answers `PING` with anything but `-LOADING` (it is still reading its AOF); `-NOAUTH`
    /// from a server with a password counts as an answer. Never blocks a thread: the socket is non-blocking, and
    /// the reply is waited for with the task sleeping.
    private static func answers(port: Int) async -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 || errno == EINPROGRESS
            }
        }
        guard connected else { return false }
        let ping = Array("PING\r\n".utf8)
        var reply = [UInt8](repeating: 0, count: 64)
        var sent = false
        for _ in 0..<100 {
            if !sent {
                sent = ping.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == ping.count
                if !sent, errno != EAGAIN, errno != EINPROGRESS, errno != ENOTCONN { return false }
            } else {
                let count = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count > 0 { return !String(decoding: reply[..<count], as: UTF8.self).hasPrefix("-LOADING") }
                if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { return false }
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }
}

/// Runs `body` with a fresh `redis-server`, stopping it on every exit path.
package func withRedisServer<T>(
    extraConfig: [String] = [], _ body: (RedisServerProcess) async throws -> T
) async throws -> T {
    let server = try await RedisServerProcess.start(extraConfig: extraConfig)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
