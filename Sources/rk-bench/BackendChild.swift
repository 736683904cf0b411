import Foundation
import ResolveKitTesting

/// The reference backend in a process of its own, so the idle figures count only the client's memory and CPU.
/// It is this executable started again with `--serve-backend`; it serves until its standard input closes.
final class BackendChild {
    static let flag = "--serve-backend"
    let baseURL: String
    private let process: Process
    private let input: Pipe

    /// Starts the child and waits for the port it listens on.
    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = [Self.flag]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw BenchFailure(message: "the backend child did not report a port")
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Closes the child's input, which ends it, and waits.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The child's body: serve on loopback, print the port, stop when stdin reaches its end.
    static func serve() async throws {
        ProcessStats.raiseOpenFileLimit()
        let backend = ReferenceBackend(configuration: .init(apiKeys: [SessionsWorkload.apiKey]))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        await Task.detached { _ = FileHandle.standardInput.readDataToEndOfFile() }.value
        await backend.stop()
        await server.stop()
    }
}
