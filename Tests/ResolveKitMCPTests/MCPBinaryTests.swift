import Foundation
import Glibc
import ResolveKit
import ResolveKitChildProcess
import ResolveKitTesting
import Testing

/// The built `rk-mcp`, started as an MCP client starts it: handshake, list, calls, a decline, cancellation,
/// progress, and its command line.
@Suite(.timeLimit(.minutes(1)))
struct MCPBinaryTests {
    /// `rk-mcp` beside the test bundle, or in `.build/debug`.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            besideTests.appending(path: "rk-mcp"), besideTests.deletingLastPathComponent().appending(path: "rk-mcp"),
            packageRoot.appending(path: ".build/debug/rk-mcp"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// A running `rk-mcp` with a client on its stdin and stdout.
    struct Running {
        let process: ChildProcess
        let client: MCPTestClient
        let stderr: Pipe

        /// Starts `rk-mcp` with `arguments`, in this process's environment with `environment` laid over it.
        static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            let variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OTEL_") }
                .merging(environment) { $1 }
            let process = try ChildProcess.spawn(
                binary.path, arguments: arguments, environment: variables, standardInput: .pipe(input),
                standardOutput: .pipe(output), standardError: .pipe(errors))
            // The client reads its own copy of the read end; the pipe's handle is closed now, so no descriptor is
            // closed twice.
            let reading = dup(output.fileHandleForReading.fileDescriptor)
            try? output.fileHandleForReading.close()
            let client = MCPTestClient(writingTo: input.fileHandleForWriting, readingFrom: reading)
            return Running(process: process, client: client, stderr: errors)
        }

        /// Waits (bounded) for the process to end and returns its status.
        func exitStatus() async -> Int32 {
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while process.isRunning, ContinuousClock.now < deadline {
                await sleepThroughCancellation(for: .milliseconds(20))
            }
            if process.isRunning { process.terminate() }
            return process.waitUntilExit().status
        }
    }

    @Test func aClientListsTheLinuxPackAndCallsItsFunctions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-mcp-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = folder + "/policy.json"
        try Data(#"{"default": "deny", "functions": {"list_directory": "allow"}}"#.utf8).write(
            to: URL(fileURLWithPath: policy))
        let server = try Running.start(["--policy", policy, "--allowed-root", folder])
        let client = server.client
        let hello = try await client.initialize()
        #expect(hello["result"]?["serverInfo"]?["name"] == "rk-mcp")

        client.request("list", "tools/list")
        let tools = try #require(try await client.response("list")["result"]?["tools"]?.arrayValue)
        let names = Set(tools.compactMap { $0["name"]?.stringValue })
        #expect(
            names.isSuperset(of: ["get_disk_usage", "get_host_status", "read_log_tail", "list_directory", "countdown"]))
        let readLog = try #require(tools.first { $0["name"] == "read_log_tail" })
        #expect(readLog["inputSchema"]?["properties"]?["path"]?["type"] == "string")
        #expect(readLog["annotations"]?["readOnlyHint"] == false)
        // rk-codegen derived the result's schema from the Codable struct perform returns.
        let diskTool = try #require(tools.first { $0["name"] == "get_disk_usage" })
        #expect(diskTool["outputSchema"]?["type"] == "object")
        #expect(diskTool["outputSchema"]?["properties"]?["fileSystems"]?["type"] == "array")

        client.request("disk", "tools/call", ["name": "get_disk_usage", "arguments": [:]])
        let disk = try await client.response("disk")["result"]
        #expect(disk?["isError"] == false)
        #expect(disk?["structuredContent"]?["fileSystems"]?.arrayValue?.isEmpty == false)
        let declared: Set<String> = Set((diskTool["outputSchema"]?["properties"]?.objectValue ?? [:]).keys)
        let returned: Set<String> = Set((disk?["structuredContent"]?.objectValue ?? [:]).keys)
        #expect(!returned.isEmpty && returned.isSubset(of: declared))

        client.request("bad", "tools/call", ["name": "countdown", "arguments": ["seconds": 0]])
        let bad = try await client.response("bad")["result"]
        #expect(bad?["isError"] == true)
        #expect(bad?["content"]?[0]?["text"]?.stringValue?.contains("$.seconds") == true)

        client.request("allowed", "tools/call", ["name": "list_directory", "arguments": ["path": .string(folder)]])
        #expect(try await client.response("allowed")["result"]?["isError"] == false)
        client.request("denied", "tools/call", ["name": "read_log_tail", "arguments": ["path": .string(policy)]])
        let denied = try await client.response("denied")["result"]
        #expect(denied?["isError"] == true)
        #expect(denied?["content"]?[0]?["text"] == "Denied by policy [declined]")

        client.request(
            "long", "tools/call", ["name": "countdown", "arguments": ["seconds": 30], "_meta": ["progressToken": "p"]])
        let progress = await client.waitFor { $0["method"] == "notifications/progress" }
        #expect(progress?["params"]?["progressToken"] == "p")
        #expect(progress?["params"]?["total"] == 30)
        client.notify("notifications/cancelled", ["requestId": "long", "reason": "no longer needed"])
        client.request("ping", "ping")
        #expect(try await client.response("ping")["result"] == [:])
        client.closeOutput()
        #expect(await server.exitStatus() == 0)
        #expect(!client.messages.contains { $0["id"] == "long" })
    }

    /// SIGTERM from a client, or Ctrl-C where it runs in a terminal: the running call is answered first.
    @Test(arguments: [(SIGTERM, 0), (SIGINT, 130)] as [(Int32, Int32)])
    func aSignalCancelsARunningCallAndAnswersItBeforeTheExit(signal: Int32, status: Int32) async throws {
        let server = try Running.start([])
        try await server.client.initialize()
        server.client.request(
            1, "tools/call", ["name": "countdown", "arguments": ["seconds": 60], "_meta": ["progressToken": 1]])
        _ = await server.client.waitFor { $0["method"] == "notifications/progress" }
        server.process.send(signal)
        #expect(await server.exitStatus() == status)
        let answer = try await server.client.response(1)
        #expect(answer["result"]?["isError"] == true)
    }

    @Test func aPolicyNamingAFunctionTheServerLacksStopsTheStartAtItsPosition() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rk-mcp-policy-\(UUID()).json").path
        try Data(#"{"functions": {"read_logs": "allow"}}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try Running.start(["--policy", path])
        server.client.closeOutput()
        #expect(await server.exitStatus() == 64)
        let text = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("\(path):1:16: error: unknown function read_logs"), "\(text)")
    }

    @Test func anOTLPExportOverGRPCStopsTheStartNamingTheProtocolItSpeaks() async throws {
        let server = try Running.start(
            [],
            environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            ])
        server.client.closeOutput()
        #expect(await server.exitStatus() == 64)
        let text = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc: rk-mcp exports over HTTP/1.1"), "\(text)")
    }

    @Test func aClientThatDisappearsMidCallEndsTheServerCleanly() async throws {
        let (input, output) = (Pipe(), Pipe())
        let process = try ChildProcess.spawn(
            Self.binary.path, standardInput: .pipe(input), standardOutput: .pipe(output), standardError: .nullDevice)
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"countdown","arguments":{"seconds":30}}}"#,
        ]
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        _ = output.fileHandleForReading.availableData  // the initialize answer: the server is up
        // The client goes away: it stops reading and closes its end of both pipes.
        try output.fileHandleForReading.close()
        try input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.waitUntilExit() == .init(reason: .exit, status: 0))
    }

    @Test(arguments: [
        (["--approve"], "--approve needs a value"),
        (["--allowed-root", "relative"], "--allowed-root must be absolute"),
        (["--policy", "/nonexistent/policy.json"], "--policy /nonexistent/policy.json does not exist"),
        (["--loud"], "unknown option '--loud'"),
    ])
    func commandLineMistakesNameTheFlag(arguments: [String], message: String) async throws {
        let server = try Running.start(arguments)
        server.client.closeOutput()
        #expect(await server.exitStatus() == 64)
        let text = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("rk-mcp: error: \(message)"), "\(text)")
        #expect(text.contains("See rk-mcp --help."))
    }
}
