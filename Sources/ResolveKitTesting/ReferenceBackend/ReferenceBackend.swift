import Foundation
import ResolveKitCore
import Synchronization

/// An in-process ResolveKit backend speaking the SDK side of the wire contract (WireProtocol, in the ResolveKitCore documentation) (§2–§8), with a scripted agent.
///
/// Serve it with the loopback server (`handle(_:)` is a ``LoopbackHandler``) or call ``handle(_:)`` directly.
/// It answers every SDK endpoint with the real backend's status codes and bodies, streams events byte for byte
/// like the real one, runs turns from an ``AgentScript`` and injects faults from a ``FaultPlan``. Turns run as
/// tasks the backend owns; ``stop()`` cancels them and finishes open event streams.
public final class ReferenceBackend: Sendable {
    /// The state of a session as the dashboard and the expiry task set it (WireProtocol §8.1).
    public enum SessionStatus: String, Sendable, Hashable {
        /// Usable.
        case active
        /// Idle past its TTL.
        case expired
        /// Resolved by an agent.
        case closed
        /// Handed to a human agent.
        case escalated
    }

    /// The configuration the backend was created with.
    public let configuration: Configuration
    let state: Mutex<BackendState>
    /// Fires whenever an event is appended, a tool result arrives or the backend stops.
    let changes = ChangeSignal()

    /// Creates a backend; nothing runs until requests arrive.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.state = Mutex(BackendState(style: configuration.eventIDStyle))
    }

    /// The backend as a loopback request handler.
    public var handler: LoopbackHandler { { request in await self.handle(request) } }

    /// A snapshot of the counters.
    public var counters: Counters { state.withLock { $0.counters } }

    /// Answers one HTTP request (a ``LoopbackHandler``).
    public func handle(_ request: LoopbackRequest) async -> LoopbackResponse {
        state.withLock { $0.counters.requests += 1 }
        let faults = configuration.faults
        let path = request.path
        switch faults.takeHold(method: request.method, path: path) {
        case .delay(let duration): try? await configuration.clock.sleep(for: duration)
        case .stall(let generation): await faults.holdStalled(releaseGeneration: generation)
        case nil: break
        }
        // A lost answer comes before an injected failure, so "lose the first answer, refuse the retry" is two faults.
        let losesAnswer = faults.takeLostAnswer(method: request.method, path: path)
        if !losesAnswer, let status = faults.takeFailure(method: request.method, path: path) {
            return BackendReply.injected(status)
        }
        let response = await route(request, path: path)
        guard losesAnswer else { return response }
        return LoopbackResponse(status: response.status, headers: response.headers, body: .stream { writer in
            await writer.abortConnection()
        })
    }

    /// Cancels running turns and waits for them, and finishes every open event stream.
    public func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            return Array(state.turnTasks.values) + Array(state.lockReleases.values)
        }
        changes.notify()
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Waits until no turn is running (for tests that check the outcome of a turn they started).
    public func waitForIdleTurns() async {
        while true {
            let tasks = state.withLock { Array($0.turnTasks.values) }
            if tasks.isEmpty { return }
            for task in tasks { await task.value }
        }
    }

    var now: Date { configuration.now() }

    /// This package's version, e.g. `1.0.0`.
    public static var version: String { ResolveKitVersion.current }

    private func route(_ request: LoopbackRequest, path: String) async -> LoopbackResponse {
        let segments = path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        let method = request.method.uppercased()
        switch segments.count {
        case 1 where segments[0] == "health":
            return method == "GET"
                ? BackendReply.json(200, .object([("status", .string("ok"))])) : Self.methodNotAllowed
        case 3 where segments[0] == "v1" && segments[1] == "sdk":
            return sdkEndpoint(segments[2], method: method, request: request) ?? Self.notFound
        case 2 where segments == ["v1", "functions"]:
            return method == "GET" ? listFunctions(request) : Self.methodNotAllowed
        case 3 where segments[0] == "v1" && segments[1] == "functions":
            switch segments[2] {
            case "bulk": return method == "PUT" ? bulkSync(request) : Self.methodNotAllowed
            case "eligible": return method == "GET" ? eligibleFunctions(request) : Self.methodNotAllowed
            default: return Self.notFound
            }
        case 2 where segments == ["v1", "sessions"]:
            return method == "POST" ? createSession(request) : Self.methodNotAllowed
        case 4 where segments[0] == "v1" && segments[1] == "sessions":
            return await sessionEndpoint(segments[3], id: segments[2], method: method, request: request)
        default:
            return Self.notFound
        }
    }

    private func sessionEndpoint(_ name: String, id: String, method: String, request: LoopbackRequest) async
        -> LoopbackResponse
    {
        switch (name, method) {
        case ("context", "PATCH"): return patchContext(request, id: id)
        case ("localization", "GET"): return localization(request, id: id)
        case ("messages", "GET"): return listMessages(request, id: id)
        case ("messages", "POST"): return postMessage(request, id: id)
        case ("tool-results", "POST"): return postToolResult(request, id: id)
        case ("feedback", "POST"): return postFeedback(request, id: id)
        case ("events", "GET"): return openEventStream(request, id: id)
        case ("context", _), ("localization", _), ("messages", _), ("tool-results", _), ("feedback", _), ("events", _):
            return Self.methodNotAllowed
        default: return Self.notFound
        }
    }

    static let notFound = BackendReply.detail(404, "Not Found")
    static let methodNotAllowed = BackendReply.detail(405, "Method Not Allowed")
}
