// libFuzzer target: the MCP server reading messages (Sources/ResolveKitMCP: MCPInput's line splitting,
// JSONRPCMessage.parse, MCPServer's routing and every method it answers, MCPOutput).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore,
// Sources/ResolveKitTools and Sources/ResolveKitMCP with coverage and ASan and links this harness against them.
// The input is a client's side of one connection, newline-delimited as on stdin: a new server (five functions, a
// policy, 1 KiB messages, pages of two tools) serves it through `MCPServer.serve` from a pipe to a file until the
// pipe ends. The deepest public entry point: nothing of the server is stubbed. Properties:
// - the server never crashes, and ends (running calls are answered or cancelled when the input ends);
// - every line written is one valid JSON-RPC 2.0 message: a response with an id and exactly one of result (an
//   object) or error (integer code, string message), or a notification the server may send;
// - every request with an id gets exactly one response with that id (at most one when the client cancelled it)
//   and no response carries an id nobody sent;
// - an invalid message gets the code JSON-RPC 2.0 and MCP require: -32700 for a line that is not JSON, -32600 for
//   an invalid request or a line over the limit (id null when it could not be read), -32602 for params that are
//   not an object; a notification and a response are never answered;
// - answers fit their method: an unknown method is an error, `tools/call` and `tools/list` results have their
//   shape, progress notifications precede their request's response and grow.

import Dispatch
import Glibc
import ResolveKitMCP
import ResolveKitTools
import Synchronization

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func mcpMessageFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    // The input is written to a pipe before the server reads it, so it must fit in the pipe's buffer.
    guard count <= 60_000 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let written = Connection.serve(input)
    let expected = Oracle.lines(input).map { Oracle.expected($0, maxBytes: Connection.maxMessageBytes) }
    Checks(output: written, expected: expected).run()
    return 0
}

/// One connection: a new server reading the input from a pipe and writing to a file this harness reads back.
enum Connection {
    static let maxMessageBytes = 1024

    static let configuration = MCPServer.Configuration(
        functions: MCPFuzzFunctions.all,
        approver: PolicyApprover(
            rules: ["gated": .allow], functionPolicies: MCPFuzzFunctions.policies, defaultRule: .deny),
        name: "fuzz", version: "1.0.0", instructions: "Call echo to hear yourself.", pageSize: 2,
        maxMessageBytes: maxMessageBytes, maxConcurrentCalls: 2)

    /// An unlinked file for the server's output: writes to it never block, however much is written.
    static let outputFile: Int32 = {
        var template = Array("/tmp/rk-fuzz-mcp-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { fatalError("MCPMessage fuzz harness: mkstemp failed, errno \(errno)") }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        return fd
    }()

    static func serve(_ input: [UInt8]) -> [UInt8] {
        let server: MCPServer
        do {
            server = try MCPServer(configuration: configuration)
        } catch {
            fatalError("MCPMessage fuzz harness: the server was refused: \(error)")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { fatalError("MCPMessage fuzz harness: pipe failed, errno \(errno)") }
        var offset = 0
        while offset < input.count {
            let count = input[offset...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            guard count > 0 else { fatalError("MCPMessage fuzz harness: writing the input failed, errno \(errno)") }
            offset += count
        }
        close(fds[1])
        guard ftruncate(outputFile, 0) == 0, lseek(outputFile, 0, SEEK_SET) == 0 else {
            fatalError("MCPMessage fuzz harness: the output file cannot be reset, errno \(errno)")
        }
        let (reading, writing) = (fds[0], outputFile)
        waitFor { await server.serve(input: reading, output: writing) }
        close(reading)
        return readAll(outputFile)
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
            offset += off_t(count)
        }
        return bytes
    }
}

/// Runs `body` on the cooperative pool and blocks this (libFuzzer's) thread until it returns.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("MCPMessage fuzz property violated: \(message())") }
}
