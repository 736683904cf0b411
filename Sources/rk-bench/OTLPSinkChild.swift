import Foundation
import ResolveKitChildProcess
import ResolveKitTesting

/// An OTLP endpoint in a process of its own that answers every export at once and keeps nothing, as a collector
/// beside the service would: it reads each batch on its own threads, which the kernel schedules against the
/// client's, not on the client's cooperative pool (an in-process receiver took one of its two threads for every
/// batch it read). It is this executable started again with `--serve-otlp-sink`; it prints its port and serves
/// until its standard input closes.
final class OTLPSinkChild: Sendable {
    static let flag = "--serve-otlp-sink"
    let baseURL: String
    private let process: ChildProcess
    private let input: Pipe

    /// Starts the child and waits for the port it listens on.
    init() throws {
        input = Pipe()
        let output = Pipe()
        process = try ChildProcess.spawn(
            "/proc/self/exe", arguments: [Self.flag], standardInput: .pipe(input), standardOutput: .pipe(output))
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += data
        }
        guard let text = line.split(separator: UInt8(ascii: "\n")).first,
            let port = Int(String(decoding: text, as: UTF8.self))
        else {
            process.terminate()
            throw BenchFailure(message: "the OTLP sink child did not report a port")
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Closes the child's input, which ends it, and waits.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The child's body: answer every request with 200 and an empty OTLP answer until standard input closes.
    static func serve() async throws {
        let server = try LoopbackHTTPServer.start { _ in
            LoopbackResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array("{}".utf8)))
        }
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        // A thread of its own: `readLine` blocks, and in a task it would hold a cooperative thread.
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                while Swift.readLine() != nil {}
                finished.resume()
            }
        }
        await server.stop()
    }
}
