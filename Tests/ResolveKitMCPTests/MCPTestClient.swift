import Foundation
import Glibc
import ResolveKit
import ResolveKitMCP
import Synchronization
import Testing

/// The client side of an MCP connection over two pipes: lines out, every line the server writes collected.
///
/// It owns both descriptors: the output is closed once, through its handle, by ``closeOutput()``; the input is
/// closed by the reading thread when it reaches the end. Nothing else may close them: tests run in parallel in one
/// process, and a descriptor closed twice would close another test's pipe.
final class MCPTestClient: Sendable {
    private let output: FileHandle
    private let outputOpen = Mutex(true)
    private final class Received: Sendable {
        let lines = Mutex<[JSONValue]>([])
    }

    private let received = Received()
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation

    /// A client writing to `output` and reading what the server writes to `input` (both now owned by it).
    init(writingTo output: FileHandle, readingFrom input: Int32) {
        self.output = output
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let thread = Thread { [received, changed] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += chunk[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line =
                        (try? JSONValue(parsing: pending[..<newline]))
                        ?? .string(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                    received.lines.withLock { $0.append(line) }
                    changed.yield()
                }
            }
            close(input)
            changed.finish()
        }
        thread.start()
    }

    /// Everything received so far.
    var messages: [JSONValue] { received.lines.withLock { $0 } }

    /// Writes one raw line.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        outputOpen.withLock { open in
            guard open else { return }
            _ = bytes.withUnsafeBytes { write(output.fileDescriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Sends a request with `id`.
    func request(_ id: JSONValue, _ method: String, _ params: JSONObject? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = .object(params) }
        send(JSONValue.object(message).serialized(options: .sortedKeys))
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONObject = [:]) {
        send(JSONValue.object(["jsonrpc": "2.0", "method": .string(method), "params": .object(params)]).serialized())
    }

    /// Closes the server's input (its end of input).
    func closeOutput() {
        outputOpen.withLock { open in
            guard open else { return }
            open = false
            try? output.close()
        }
    }

    /// Waits until a received message satisfies `match` (bounded: 20 s), and returns it.
    func waitFor(_ match: @escaping @Sendable (JSONValue) -> Bool) async -> JSONValue? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        if let found = messages.first(where: match) { return found }
        let timeout = Task { [changed] in
            try? await Task.sleep(until: deadline)
            changed.yield()
        }
        defer { timeout.cancel() }
        for await _ in changes {
            if let found = messages.first(where: match) { return found }
            if ContinuousClock.now >= deadline { break }
        }
        return messages.first(where: match)
    }

    /// The response to `id`.
    func response(_ id: JSONValue) async throws -> JSONValue {
        try #require(
            await waitFor { $0["id"] == id && ($0["result"] != nil || $0["error"] != nil) }, "no response to \(id)")
    }

    /// The handshake, at `version`.
    @discardableResult
    func initialize(_ version: String = "2025-11-25") async throws -> JSONValue {
        request(
            "init", "initialize",
            [
                "protocolVersion": .string(version), "capabilities": [:],
                "clientInfo": ["name": "test", "version": "1"],
            ])
        let answer = try await response("init")
        notify("notifications/initialized")
        return answer
    }
}

/// A server serving on pipes, with a client on their other ends.
struct MCPPipes {
    let client: MCPTestClient
    let serving: Task<Void, Never>

    static func start(_ server: MCPServer) -> MCPPipes {
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        pipe(&toServer)
        pipe(&fromServer)
        let serverInput = FileHandle(fileDescriptor: toServer[0], closeOnDealloc: false)
        let serverOutput = FileHandle(fileDescriptor: fromServer[1], closeOnDealloc: false)
        let serving = Task {
            await server.serve(input: serverInput.fileDescriptor, output: serverOutput.fileDescriptor)
            try? serverOutput.close()
            try? serverInput.close()
        }
        let client = MCPTestClient(
            writingTo: FileHandle(fileDescriptor: toServer[1], closeOnDealloc: false), readingFrom: fromServer[0])
        return MCPPipes(client: client, serving: serving)
    }
}
