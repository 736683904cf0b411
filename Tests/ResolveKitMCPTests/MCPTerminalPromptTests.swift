import Foundation
import Glibc
import ResolveKit
import ResolveKitChildProcess
import Synchronization
import Testing

/// `rk-mcp --approve prompt`: the protocol on stdin and stdout, the person at the controlling terminal. `script`
/// gives the server a pseudo-terminal as its controlling terminal, and the protocol runs over two FIFOs.
@Suite(.timeLimit(.minutes(1)))
struct MCPTerminalPromptTests {
    /// Opens `path` on a thread of its own (opening a FIFO blocks until the other end opens).
    static func open(_ path: String, _ flags: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Glibc.open(path, flags)) }.start()
        }
    }

    @Test func aPersonAtTheTerminalApprovesWhileTheProtocolRunsOnStdio() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-mcp-tty-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (input, output) = (folder + "/in", folder + "/out")
        #expect(mkfifo(input, 0o600) == 0 && mkfifo(output, 0o600) == 0)
        let command =
            "'\(MCPBinaryTests.binary.path)' --approve prompt --allowed-root '\(folder)' < '\(input)' > '\(output)'"
        let screen = Pipe()
        let keys = Pipe()
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        let process = try ChildProcess.spawn(
            "/usr/bin/script", arguments: ["-qfec", command, "/dev/null"], environment: environment,
            standardInput: .pipe(keys), standardOutput: .pipe(screen))
        let shown = Mutex("")
        Thread {
            while true {
                let data = screen.fileHandleForReading.availableData
                if data.isEmpty { return }
                shown.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }.start()
        let toServer = await Self.open(input, O_WRONLY)
        let fromServer = await Self.open(output, O_RDONLY)
        let client = MCPTestClient(
            writingTo: FileHandle(fileDescriptor: toServer, closeOnDealloc: false), readingFrom: fromServer)
        try await client.initialize()
        client.request(1, "tools/call", ["name": "list_directory", "arguments": ["path": .string(folder)]])
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while !shown.withLock({ $0.contains("Approve 1 tool call?") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(shown.withLock { $0.contains("list_directory") })
        keys.fileHandleForWriting.write(Data("a".utf8))
        let answer = try await client.response(1)
        #expect(answer["result"]?["isError"] == false, "\(answer)")
        #expect(answer["result"]?["structuredContent"]?["entries"] != nil)
        client.closeOutput()
        process.waitUntilExit()
    }
}
