import Foundation
import Glibc
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// `--socket` takes only a path nobody serves: a stale socket file is replaced, a live one and any other file are
/// left alone with a usage error naming the flag; `--metrics-listen` on a port in use is the same usage error.
@Suite(.timeLimit(.minutes(2)))
struct ServiceListeningTests {
    /// A second service on its own state folder, asking for the first one's socket.
    static func launchSecond(_ harness: ServiceHarness, socket path: String) throws -> ServiceProcess {
        var environment = ServiceProcess.cleanEnvironment
        environment["RESOLVEKIT_API_KEY"] = ServiceHarness.apiKey
        return try ServiceProcess(
            ["--base-url", harness.server.baseURL, "--state-dir", harness.directory + "/second", "--socket", path],
            environment: environment)
    }

    /// `service` answers a status request on `path`, then stops cleanly on SIGTERM.
    static func expectAnswersOnItsSocketThenStops(_ service: ServiceProcess, path: String) async {
        do {
            let client = try UnixStreamClient(path: path)
            client.send(#"{"id": "s1", "command": "status"}"#)
            let line = await offThePool { client.readLine() }
            #expect(line?.contains(#""id":"s1""#) == true)
        } catch {
            Issue.record("cannot connect to \(path): \(error)")
        }
        service.signal(SIGTERM)
        #expect(await service.exitStatus() == 0)
    }

    @Test func aSocketAnotherServiceServesIsRefusedAndKeepsServing() async throws {
        try await ServiceHarness.run { harness in
            let path = harness.directory + "/rk.sock"
            let first = try harness.launch(["--socket", path])
            #expect(await first.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            let second = try Self.launchSecond(harness, socket: path)
            #expect(await second.exitStatus() == 64)
            #expect(second.stderr.contains(#"flag=--socket"#))
            #expect(second.stderr.contains("another process is serving on it"))
            await Self.expectAnswersOnItsSocketThenStops(first, path: path)
        }
    }

    @Test func aSocketFileNobodyServesIsReplaced() async throws {
        try await ServiceHarness.run { harness in
            let path = harness.directory + "/rk.sock"
            // What a killed service leaves: the file of a socket whose listener is gone.
            let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var (address, length) = unixAddress(path)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, length) }
            }
            try #require(bound == 0)
            close(stale)
            let service = try harness.launch(["--socket", path])
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            await Self.expectAnswersOnItsSocketThenStops(service, path: path)
        }
    }

    @Test func aPathThatIsNotASocketIsRefusedAndKept() async throws {
        try await ServiceHarness.run { harness in
            let path = harness.directory + "/notes.txt"
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
            let service = try harness.launch(["--socket", path])
            #expect(await service.exitStatus() == 64)
            #expect(service.stderr.contains(#"flag=--socket"#))
            #expect(service.stderr.contains("the path exists and is not a socket"))
            #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
        }
    }

    @Test func aMetricsPortInUseIsAUsageErrorNamingTheFlagAndTheReason() async throws {
        try await ServiceHarness.run { harness in
            let taken = try LoopbackHTTPServer.start { _ in LoopbackResponse(status: 204) }
            let address = taken.baseURL.replacingOccurrences(of: "http://", with: "")
            let service = try harness.launch(["--metrics-listen", address])
            #expect(await service.exitStatus() == 64)
            #expect(service.stderr.contains("flag=--metrics-listen"))
            #expect(service.stderr.contains("Address already in use"))
            await taken.stop()
        }
    }
}
