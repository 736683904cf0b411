import ResolveKitTesting
import Synchronization

/// An OTLP/HTTP endpoint on a loopback port for tests: it records every request and answers from a script (a
/// status, a `Retry-After`, a delay before answering), then 200 with `{}`.
final class OTLPReceiver: Sendable {
    struct Reply: Sendable {
        var status: Int
        var retryAfter: String?
        var delay: Duration?
        /// The body and its type; `{}` in JSON by default.
        var body: (type: String, bytes: [UInt8])?
    }

    private let recorded = Mutex<[LoopbackRequest]>([])
    private let script: Mutex<[Reply]>

    init(_ script: [Reply] = []) {
        self.script = Mutex(script)
    }

    var requests: [LoopbackRequest] { recorded.withLock { $0 } }

    var handler: LoopbackHandler {
        { request in
            self.recorded.withLock { $0.append(request) }
            let reply = self.script.withLock { $0.isEmpty ? Reply(status: 200) : $0.removeFirst() }
            if let delay = reply.delay { try? await Task.sleep(for: delay) }
            let body = reply.body ?? ("application/json", Array("{}".utf8))
            var headers = [(name: "Content-Type", value: body.type)]
            if let retryAfter = reply.retryAfter { headers.append((name: "Retry-After", value: retryAfter)) }
            return LoopbackResponse(status: reply.status, headers: headers, body: .bytes(body.bytes))
        }
    }
}
