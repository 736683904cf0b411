import Foundation
import Glibc

/// A real forward proxy (tinyproxy, from Debian's package) on a loopback port: it tunnels TLS with `CONNECT` and,
/// when given credentials, wants HTTP Basic authentication (`BasicAuth`), answering 407 without them. It runs in the
/// foreground (`-d`) with its configuration and log in a temporary folder.
package struct TinyproxyServer: Sendable {
    /// The running tinyproxy.
    package let process: LoopbackServerProcess

    /// `http://127.0.0.1:PORT`.
    package var url: String { "http://127.0.0.1:\(process.port)" }

    /// Starts tinyproxy; with `user` and `password`, only requests that carry them pass.
    /// - Throws: ``ExternalProgram/Missing`` without tinyproxy; ``FixtureError`` when it does not start.
    package static func start(user: String? = nil, password: String? = nil) async throws -> TinyproxyServer {
        let tinyproxy = try ExternalProgram.tinyproxy.require()
        let process = try await LoopbackServerProcess.start(tinyproxy, name: "tinyproxy", logFile: "tinyproxy.log") {
            port, directory in
            var lines = [
                "Port \(port)", "Listen 127.0.0.1", "Timeout 600", "MaxClients 64", "LogLevel Info",
                "LogFile \"\(directory)/tinyproxy.log\"", "PidFile \"\(directory)/tinyproxy.pid\"", "Allow 127.0.0.1",
            ]
            if geteuid() == 0 { lines += ["User root", "Group root"] }
            if let user, let password { lines.append("BasicAuth \(user) \(password)") }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: directory + "/tinyproxy.conf", atomically: true, encoding: .utf8)
            return ["-d", "-c", directory + "/tinyproxy.conf"]
        }
        return TinyproxyServer(process: process)
    }

    /// Stops tinyproxy and removes its folder.
    package func stop() async {
        await process.stop()
    }

    /// tinyproxy's log: each request it served or refused.
    package var log: String { process.log }
}
