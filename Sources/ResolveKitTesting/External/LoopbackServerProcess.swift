import Foundation
import Glibc
import ResolveKitChildProcess

/// A server program started for a test on a loopback port (nginx, tinyproxy): started as a child that stays in the
/// foreground, with its files in a temporary folder, waited for until its port accepts connections, and stopped
/// with its folder removed.
package final class LoopbackServerProcess: Sendable {
    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    /// Its temporary folder (configuration, logs, pid file).
    package let directory: String
    private let child: ChildProcess
    private let logFile: String

    private init(port: Int, directory: String, child: ChildProcess, logFile: String) {
        self.port = port
        self.directory = directory
        self.child = child
        self.logFile = logFile
    }

    /// Starts the program on a free port: `configure` gets the port and the folder, writes the configuration there
    /// and returns the arguments; `logFile` is the program's log, relative to the folder. A port taken by someone
    /// else in between is tried again with another.
    /// - Throws: ``FixtureError`` with the program's log when it does not listen within 10 s.
    package static func start(
        _ executable: String, name: String, logFile: String,
        configure: (_ port: Int, _ directory: String) throws -> [String]
    ) async throws -> LoopbackServerProcess {
        var lastError: (any Error)?
        for _ in 0..<3 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "rk-\(name)-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            let port = freeLoopbackPort()
            let arguments = try configure(port, directory)
            let child = try ChildProcess.spawn(
                executable, arguments: arguments, standardInput: .nullDevice,
                standardOutput: .fileHandle(try Self.log(directory + "/stdout.log")),
                standardError: .fileHandle(try Self.log(directory + "/stderr.log")))
            let server = LoopbackServerProcess(port: port, directory: directory, child: child, logFile: logFile)
            do {
                try await server.waitUntilListening()
                return server
            } catch {
                lastError = error
                await server.stop()
            }
        }
        throw lastError ?? FixtureError("\(name) did not start")
    }

    /// Ends the program (SIGTERM, then SIGKILL after 5 s) and removes its folder. Idempotent.
    package func stop() async {
        child.terminate()
        for _ in 0..<500 where child.isRunning {
            await sleepThroughCancellation(for: .milliseconds(10))
        }
        if child.isRunning { child.send(SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The program's log so far, for a failing test's message.
    package var log: String {
        [directory + "/" + logFile, directory + "/stdout.log", directory + "/stderr.log"].compactMap {
            try? String(contentsOfFile: $0, encoding: .utf8)
        }.joined(separator: "\n")
    }

    private func waitUntilListening() async throws {
        for _ in 0..<1000 {
            guard child.isRunning else { throw FixtureError("The server exited at once:\n\(log)") }
            // Another server (a test's, on a port the kernel handed out again) may hold the port while the program
            // fails to bind it: only the program's own listening socket counts.
            if Self.accepts(port), Self.listens(child.pid, on: port) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw FixtureError("The server did not listen on 127.0.0.1:\(port) within 10 s:\n\(log)")
    }

    private static func accepts(_ port: Int) -> Bool {
        guard let descriptor = connectToLoopback(port: port) else { return false }
        close(descriptor)
        return true
    }

    /// Whether the socket listening on 127.0.0.1:`port` is one of `pid`'s (true when `/proc` cannot tell). An IPv6
    /// socket bound to the IPv4-mapped address (`[::ffff:127.0.0.1]`, as gRPC's servers bind) counts too.
    package static func listens(_ pid: Int32, on port: Int) -> Bool {
        guard let table = procFile("/proc/net/tcp") else { return true }
        let table6 = procFile("/proc/net/tcp6") ?? ""
        let portHex = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        let locals: Set<Substring> = ["0100007F" + portHex, "0000000000000000FFFF00000100007F" + portHex]
        let lines = table.split(separator: "\n").dropFirst() + table6.split(separator: "\n").dropFirst()
        let sockets = lines.compactMap { line -> String? in
            let fields = line.split(separator: " ")
            // sl, local address, remote address, state (0A: listening), …, inode (the tenth field)
            guard fields.count > 9, locals.contains(fields[1]), fields[3] == "0A" else { return nil }
            return "socket:[\(fields[9])]"
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.contains { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
            return target.map(sockets.contains) ?? false
        }
    }

    /// The whole text of a `/proc` file. Foundation's `String(contentsOfFile:)` stops after one read, a page, of a
    /// file whose size the kernel reports as 0: past thirty sockets, `/proc/net/tcp` is longer.
    static func procFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func log(_ path: String) throws -> FileHandle {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }
}

/// A port on 127.0.0.1 that was free a moment ago: the kernel picks it for a socket that is closed again.
package func freeLoopbackPort() -> Int {
    guard let held = try? LoopbackRefusingPort() else { return 0 }
    held.close()
    return Int(held.port)
}

/// `127.0.0.1:port` as a socket address.
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
