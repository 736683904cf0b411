import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitRedis
import ResolveKitTesting

/// `redis`: what one Redis exchange costs on loopback, so the replicated store can be designed in round trips.
/// - `ping-tcp`, `ping-unix`: one `PING` round trip through ``RedisClient`` over TCP and over a Unix socket.
/// - `fenced-write`: one journal change as the store will write it (journal entry, undelivered mark, cursor) through
///   the fenced-write script, with `appendfsync everysec` and with `appendfsync always` (an fsync per write).
/// - `lease-cycle`: acquire then release of a lease (two round trips).
/// - `pipelined`: the cost per command of 100 `INCR`s written at once.
/// Each server is a `redis-server` of its own on a free loopback port, AOF on, no snapshots.
struct RedisWorkload: Workload {
    let name = "redis"
    let summary = "Redis round trip (TCP, Unix), fenced journal write (fsync everysec, always), lease cycle (us)"
    static let iterations = 5000
    static let warmUp = 500

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        do {
            return try await measure(log: log)
        } catch let error as BenchFailure {
            throw error
        } catch {
            throw BenchFailure(message: "redis: \(error)")
        }
    }

    private func measure(log: @Sendable (String) -> Void) async throws -> [Measurement] {
        let executable: String
        do {
            executable = try ExternalProgram.redisServer.require()
        } catch {
            throw BenchFailure(message: "redis: \(error)")
        }
        var rows: [Measurement] = []
        for fsync in ["everysec", "always"] {
            let server = try await BenchRedisServer.start(executable: executable, fsync: fsync)
            defer { server.stop() }
            let tcp = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:\(server.port)"))
            defer { tcp.close() }
            if fsync == "everysec" {
                rows.append(try await Self.sample("ping-tcp") { try await tcp.send(RedisCommand("PING")) })
                let unix = RedisClient(configuration: try RedisConfiguration(url: "unix://\(server.socket)"))
                defer { unix.close() }
                rows.append(try await Self.sample("ping-unix") { try await unix.send(RedisCommand("PING")) })
                let store = RedisLeaseStore(client: tcp, prefix: "rk:bench")
                var round = 0
                rows.append(
                    try await Self.sample("lease-cycle") {
                        round += 1
                        let grant = try await store.acquire(
                            "user-\(round % 64)", holder: "bench", duration: .seconds(5))
                        try await store.release(grant)
                    })
                let commands = (0..<100).map { _ in RedisCommand("INCR", "n") }
                var pipelined = try await Self.sample("pipelined-per-command", iterations: 500) {
                    _ = try await tcp.pipeline(commands)
                }
                pipelined.value /= 100
                pipelined.details = pipelined.details.mapValues { $0 / 100 }
                rows.append(pipelined)
            }
            rows.append(try await fencedWrite(tcp, fsync: fsync))
        }
        log("redis: \(Self.iterations) samples per row after \(Self.warmUp) warm-up, redis-server on loopback")
        return rows
    }

    /// The write a tool call's result costs: its journal line, its undelivered mark and the cursor, fenced.
    private func fencedWrite(_ client: RedisClient, fsync: String) async throws -> Measurement {
        let store = RedisLeaseStore(client: client, prefix: "rk:bench")
        let grant = try await store.acquire("writer", holder: "bench", duration: .seconds(600))
        var index = 0
        let line = #"{"call_id":"call_0000","function_name":"host_status","result":{"load":0.42},"status":"answered"}"#
        return try await Self.sample("fenced-write-\(fsync)") {
            index += 1
            var change = RedisStateChange()
            change.putJournalEntry(callID: "call_\(index % 4096)", line: line)
            change.markUndelivered(callID: "call_\(index % 4096)")
            change.setField("cursor", to: String(index))
            try await store.write("writer", token: grant.token, change)
        }
    }

    static func sample(
        _ contender: String, iterations: Int = iterations, _ body: () async throws -> Void
    ) async throws -> Measurement {
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<(iterations + warmUp) {
            let start = ContinuousClock.now
            try await body()
            if index >= warmUp {
                let elapsed = start.duration(to: .now).components
                samples.append(Double(elapsed.seconds) * 1e6 + Double(elapsed.attoseconds) / 1e12)
            }
        }
        return ToolLatencyWorkload.row("redis", contender, samples)
    }
}

/// A `redis-server` child for the benchmark, in a temporary folder.
struct BenchRedisServer {
    let process: ChildProcess
    let port: Int
    let directory: String
    var socket: String { directory + "/redis.sock" }

    static func start(executable: String, fsync: String) async throws -> BenchRedisServer {
        let directory = NSTemporaryDirectory() + "rk-bench-redis-\(getpid())-\(fsync)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = freePort()
        let config = [
            "port \(port)", "bind 127.0.0.1", "save \"\"", "appendonly yes", "appendfsync \(fsync)", "dir \(directory)",
            "unixsocket \(directory)/redis.sock", "unixsocketperm 700", "logfile \(directory)/redis.log",
        ].joined(separator: "\n")
        try config.write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
        let process = try ChildProcess.spawn(
            executable, arguments: [directory + "/redis.conf"], standardInput: .nullDevice, standardOutput: .nullDevice,
            standardError: .nullDevice)
        var configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(port)")
        configuration.reconnect = RedisBackoff(
            maximumAttempts: 40, initialDelay: .milliseconds(50), maximumDelay: .milliseconds(100))
        let probe = RedisClient(configuration: configuration)
        defer { probe.close() }
        do {
            _ = try await probe.send(RedisCommand("PING"))
        } catch {
            process.send(SIGKILL)
            throw BenchFailure(message: "redis-server did not start: \(error)")
        }
        return BenchRedisServer(process: process, port: port, directory: directory)
    }

    func stop() {
        process.terminate()
        if process.waitUntilExit(timeout: .seconds(10)) == nil { process.send(SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func freePort() -> Int {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
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
