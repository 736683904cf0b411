import Foundation
import Glibc
import ResolveKit

/// A connection to `rk-service`'s Unix socket: request lines out, answer and event lines in.
final class ServiceConnection: Sendable {
    /// Connecting failed.
    struct ConnectError: Error, CustomStringConvertible {
        var description: String
    }

    /// Every line the service sends, parsed; ends when the service closes the connection.
    let lines: AsyncStream<JSONValue>
    private let fd: Int32

    /// Connects to `path`.
    /// - Throws: ``ConnectError`` naming the socket and the system's reason.
    init(path: String) throws(ConnectError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ConnectError(description: "cannot create a socket: \(String(cString: strerror(errno)))")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ConnectError(description: "--socket \(path) is longer than a Unix socket path may be")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ConnectError(
                description:
                    "cannot connect to --socket \(path): \(reason) (is rk-service running with --socket \(path)?)")
        }
        self.fd = fd
        let (lines, continuation) = AsyncStream.makeStream(of: JSONValue.self)
        self.lines = lines
        let thread = Thread { Self.read(fd, into: continuation) }
        thread.name = "rk-approve socket"
        thread.start()
    }

    /// Sends one request.
    func send(_ request: JSONObject) {
        let bytes = Array((JSONValue.object(request).serialized(options: .sortedKeys) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Stops sending: the service sees the end of input and closes its side once it has answered.
    func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    private static func read(_ fd: Int32, into continuation: AsyncStream<JSONValue>.Continuation) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                if let value = try? JSONValue(parsing: pending[..<newline]) { continuation.yield(value) }
                pending.removeSubrange(...newline)
            }
        }
        close(fd)
        continuation.finish()
    }
}

/// Pending batches as the service describes them.
enum ApprovalWire {
    /// The request a ``ResolveKitTerminal/TerminalApprover`` shows, with each call's time left counted from now.
    static func request(_ batch: JSONValue, clock: ResolveKitClock) -> ToolApprovalRequest? {
        guard let sessionID = batch["session_id"]?.stringValue, let batchID = batch["batch_id"]?.intValue,
            let calls = batch["calls"]?.arrayValue
        else { return nil }
        let now = clock.elapsed
        return ToolApprovalRequest(
            batchID: batchID,
            calls: calls.compactMap { call in
                guard let id = call["call_id"]?.stringValue, let function = call["function"]?.stringValue else {
                    return nil
                }
                let seconds = max(1, call["seconds_left"]?.intValue ?? 1)
                return ToolApprovalRequest.Call(
                    call: PendingToolCall(
                        callID: ToolCallID(id), turnID: "", functionName: function, arguments: call["arguments"] ?? [:],
                        humanDescription: call["description"]?.stringValue ?? "", requiresApproval: true,
                        timeoutSeconds: seconds, receivedAt: now),
                    timeRemaining: .seconds(seconds))
            },
            sessionID: sessionID)
    }
}
