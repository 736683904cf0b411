import Glibc
import ResolveKitCore
import ResolveKitTools
import Synchronization

/// The protocol's output: one JSON-RPC message per line on a descriptor (stdout), written whole and in order.
/// Nothing else is ever written to it.
final class MCPOutput: Sendable {
    private let fd: Int32
    private let lock = Mutex(())

    init(fd: Int32) { self.fd = fd }

    func result(_ id: JSONValue, _ result: JSONObject) {
        write(["jsonrpc": "2.0", "id": id, "result": .object(result)])
    }

    func error(_ id: JSONValue?, _ error: JSONRPCError) {
        write(["jsonrpc": "2.0", "id": id ?? .null, "error": error.json])
    }

    func notification(_ method: String, _ params: JSONObject) {
        write(["jsonrpc": "2.0", "method": .string(method), "params": .object(params)])
    }

    private func write(_ message: JSONObject) {
        var bytes = JSONValue.object(message).serializedBytes(options: .sortedKeys)
        bytes.append(UInt8(ascii: "\n"))
        // A closed output loses the message: the client that would read it is gone.
        lock.withLock { _ in _ = FileDescriptorWrite.all(bytes, to: fd) }
    }
}
