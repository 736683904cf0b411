import Foundation
import Glibc

/// A request line read from an input, and where its answer goes.
struct IncomingLine: Sendable {
    /// The line's bytes, or `nil` when the line was longer than ``ServiceRequest/maxLineBytes``.
    var bytes: [UInt8]?
    /// The input it came from; send exactly one answer to it.
    var reply: ReplySink
    /// Who sent it, from the socket's peer credentials; `nil` on stdin.
    var peer: PeerCredentials? = nil
}

/// The user and process on the other end of a Unix socket, as the kernel reports them (`SO_PEERCRED`).
struct PeerCredentials: Sendable, Equatable {
    var uid: UInt32
    var pid: Int32

    /// The credentials of the peer of the connected socket `fd`, or `nil` when it is not a Unix socket.
    init?(socket fd: Int32) {
        // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`, which Glibc's module does not export.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        uid = credentials.uid
        pid = credentials.pid
    }
}

/// Where requests come from: stdin, or a Unix socket's connections.
protocol RequestSource: Sendable {
    /// Every request line from now on; ends after ``stop()``, or when stdin ends.
    var lines: AsyncStream<IncomingLine> { get }
    /// Starts reading.
    func start()
    /// Stops taking requests; answers to requests already read can still be sent.
    func stop()
    /// A short description for logs and `STATUS=`.
    var summary: String { get }
}

enum LineReading {
    /// Reads `fd` on a thread of its own until end-of-input, yielding each line; returns when the input ends or
    /// the stream was finished.
    static func read(
        fd: Int32, reply: ReplySink, peer: PeerCredentials? = nil,
        into continuation: AsyncStream<IncomingLine>.Continuation
    ) {
        var buffer = LineBuffer(maxBytes: ServiceRequest.maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        func deliver(_ lines: [LineBuffer.Line]) -> Bool {
            for line in lines {
                reply.expectAnswer()
                let bytes: [UInt8]? = if case .line(let bytes) = line { bytes } else { nil }
                if case .terminated = continuation.yield(IncomingLine(bytes: bytes, reply: reply, peer: peer)) {
                    reply.send(ServiceResponse.error(id: nil, "the service is shutting down").line)
                    return false
                }
            }
            return true
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            guard deliver(buffer.append(chunk[0..<count])) else {
                reply.finishReading()
                return
            }
        }
        _ = deliver(buffer.finish())
        reply.finishReading()
    }

    /// Runs `body` on a new thread.
    static func detach(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}

/// Requests on stdin, answers on stdout; the end of stdin ends the service once every answer is written.
final class StandardInputSource: RequestSource {
    let lines: AsyncStream<IncomingLine>
    private let continuation: AsyncStream<IncomingLine>.Continuation
    let summary = "stdin"

    init() {
        (lines, continuation) = AsyncStream.makeStream(of: IncomingLine.self)
    }

    func start() {
        let continuation = continuation
        LineReading.detach("rk-service stdin") {
            LineReading.read(
                fd: STDIN_FILENO, reply: ReplySink(fd: STDOUT_FILENO, ownsDescriptor: false), into: continuation)
            continuation.finish()
        }
    }

    /// Ends the stream; the reading thread stays blocked in `read` until the process exits, and drops what it reads.
    func stop() {
        continuation.finish()
    }
}
