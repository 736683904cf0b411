public import Glibc
public import ResolveKitTelemetry
public import ResolveKitTools
import Synchronization

/// Serves a registry's functions over the Model Context Protocol on stdio: newline-delimited JSON-RPC 2.0 on
/// stdin and stdout, nothing else on stdout.
///
/// ```swift
/// let server = try MCPServer(configuration: .init(
///     functionPacks: [SystemFunctionsPack.self],
///     approver: try PolicyApprover(contentsOf: URL(fileURLWithPath: "policy.json"))))
/// await server.serve()   // until stdin ends or the task is cancelled
/// ```
/// Calls go the way a ResolveKit call goes: tolerant coercion and schema validation, approval by the same
/// approvers with the call's deadline (no decision in time is a decline), the function's deadline, cancellation.
/// Both eras of the protocol are spoken: the `initialize` handshake of 2025-11-25 (negotiating down to 2025-06-18
/// and 2025-03-26), and the stateless 2026-07-28, whose requests carry their version in `_meta`.
public final class MCPServer: Sendable {
    /// What the server serves and how.
    public struct Configuration: Sendable {
        /// Functions registered one by one.
        public var functions: [any AnyResolveKitFunction.Type]
        /// Function packs.
        public var functionPacks: [any ResolveKitFunctionPack.Type]
        /// Who approves calls that need approval. Default: decline everything.
        public var approver: any ToolApprover
        /// What functions read from their context.
        public var dependencies: ResolveKitDependencies
        /// The name and version the server reports.
        public var name: String
        /// The server's version (by default this package's).
        public var version: String
        /// Guidance for the model, sent with the handshake.
        public var instructions: String?
        /// Where every decision and outcome is recorded, hash-chained.
        public var auditTrail: ApprovalAuditTrail?
        /// Where the server logs (never stdout).
        public var logger: ResolveKitLogger
        /// Deadlines run on this clock.
        public var clock: ResolveKitClock
        /// Tools per `tools/list` page.
        public var pageSize: Int
        /// The longest message accepted, in bytes; a longer line is answered with an error and skipped.
        public var maxMessageBytes: Int
        /// The most calls running at once; more wait for a slot, within their deadline.
        public var maxConcurrentCalls: Int
        /// Where requests and calls are counted and traced: `mcp_server_operation_duration_seconds` and the tools
        /// core's call metrics in its registry, a `tools/call` server span under the client's
        /// `params._meta.traceparent` with the call's spans under it. `nil` (the default) records nothing.
        public var telemetry: Telemetry?

        /// Creates a configuration.
        public init(
            functions: [any AnyResolveKitFunction.Type] = [], functionPacks: [any ResolveKitFunctionPack.Type] = [],
            approver: any ToolApprover = DenyAllApprover(reason: "No approver is configured on this server"),
            dependencies: ResolveKitDependencies = ResolveKitDependencies(), name: String = "resolvekit",
            version: String? = nil, instructions: String? = nil,
            auditTrail: ApprovalAuditTrail? = nil, logger: ResolveKitLogger = .disabled,
            clock: ResolveKitClock = .continuous, pageSize: Int = 100, maxMessageBytes: Int = 4 << 20,
            maxConcurrentCalls: Int = 8, telemetry: Telemetry? = nil
        ) {
            self.telemetry = telemetry
            self.functions = functions
            self.functionPacks = functionPacks
            self.approver = approver
            self.dependencies = dependencies
            self.name = name
            self.version = version ?? ResolveKitVersion.current
            self.instructions = instructions
            self.auditTrail = auditTrail
            self.logger = logger
            self.clock = clock
            self.pageSize = max(1, pageSize)
            self.maxMessageBytes = max(1024, maxMessageBytes)
            self.maxConcurrentCalls = max(1, maxConcurrentCalls)
        }
    }

    /// The handshake revisions, newest first.
    public static let legacyVersions = ["2025-11-25", "2025-06-18", "2025-03-26"]
    /// The stateless revisions, whose requests carry their version in `_meta`.
    public static let modernVersions = ["2026-07-28"]

    /// What it was made with.
    public let configuration: Configuration
    /// The calls waiting for approval, decidable from any task (as a runtime's `approvals`).
    public let approvals: ToolApprovals
    let registry: ResolveKitRegistry
    let dispatcher: ToolDispatcher
    /// The one limit on calls running at once, shared by every request.
    let control: ToolCallControl
    /// What each call records through, and the catalog requests are counted in.
    let toolTelemetry: ToolCallTelemetry
    let state = Mutex(SessionState())

    /// Creates a server for the configuration's functions.
    /// - Throws: ``ResolveKitError/Code/invalidConfiguration`` naming a refused function.
    public init(configuration: Configuration) throws(ResolveKitError) {
        self.configuration = configuration
        do {
            registry = try ResolveKitRegistry(
                functions: configuration.functions, functionPacks: configuration.functionPacks)
        } catch {
            throw ResolveKitError(.invalidConfiguration, "A function was refused: \(error)", underlying: error)
        }
        dispatcher = ToolDispatcher(
            registry: registry, clock: configuration.clock, logger: configuration.logger,
            dependencies: configuration.dependencies)
        approvals = ToolApprovals(rememberedFile: nil, registry: registry)
        control = ToolCallControl(maxConcurrentCalls: configuration.maxConcurrentCalls)
        if let telemetry = configuration.telemetry {
            do {
                toolTelemetry = ToolCallTelemetry(
                    metrics: try telemetry.metrics(functionNames: registry.functionNames),
                    tracer: telemetry.recordingTracer)
            } catch {
                throw ResolveKitError(
                    .invalidConfiguration, "The telemetry's registry cannot take the metrics: \(error)",
                    underlying: error)
            }
        } else {
            toolTelemetry = .off
        }
    }

    /// Serves the protocol on `input` and `output` until the input ends or the calling task is cancelled; then
    /// running calls are cancelled and answered, and it returns.
    public func serve(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) async {
        let writer = MCPOutput(fd: output)
        let lines = MCPInput.lines(fd: input, maxBytes: configuration.maxMessageBytes)
        await withTaskCancellationHandler {
            for await line in lines {
                if Task.isCancelled { break }
                switch line {
                case .tooLong:
                    writer.error(
                        nil, .invalidRequest("The message is longer than \(configuration.maxMessageBytes) bytes"))
                case .message(let bytes):
                    if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == 9 }) { continue }
                    receive(JSONRPCMessage.parse(bytes), writer)
                }
            }
        } onCancel: {
            state.withLock { $0.shuttingDown = true }
        }
        await shutDown()
    }

    /// Cancels every running request and waits for their answers.
    private func shutDown() async {
        let running = state.withLock { state in
            state.shuttingDown = true
            return Array(state.inFlight.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Routes one message: requests run as tasks of their own (so `ping` and cancellation are answered while a
    /// call runs); notifications are applied at once; responses are ignored.
    func receive(_ message: JSONRPCMessage, _ output: MCPOutput) {
        switch message {
        case .invalid(let id, let error):
            output.error(id, error)
        case .response, .unusableNotification:
            break
        case .notification(let method, let params):
            notification(method, params)
        case .request(let id, let method, let params):
            start(id: id, method: method, params: params, output)
        }
    }

    private func start(id: JSONValue, method: String, params: JSONObject, _ output: MCPOutput) {
        let key = RequestKey(id)
        // The task is made and recorded under the lock: it takes the lock itself before it ends, so it can never
        // remove its entry before the entry exists.
        let refusal = state.withLock { state -> JSONRPCError? in
            if state.inFlight[key] != nil {
                return .invalidRequest("The request id \(id.serialized()) is already in use by a running request")
            }
            if state.shuttingDown { return .internalError("The server is shutting down") }
            state.inFlight[key] = Task { [self] in
                let reply = await observed(method: method, params: params, id: id, output)
                let cancelledByClient = self.state.withLock { $0.cancelledByClient.remove(key) != nil }
                if !cancelledByClient {
                    switch reply {
                    case .success(let result): output.result(id, result)
                    case .failure(let error): output.error(id, error)
                    }
                }
                self.state.withLock { _ = $0.inFlight.removeValue(forKey: key) }
            }
            return nil
        }
        if let refusal { output.error(id, refusal) }
    }

    private func notification(_ method: String, _ params: JSONObject) {
        switch method {
        case "notifications/initialized":
            state.withLock { state in if state.phase == .initializing { state.phase = .ready } }
        case "notifications/cancelled":
            guard let id = params["requestId"], id.stringValue != nil || id.intValue != nil else { return }
            let key = RequestKey(id)
            let task = state.withLock { state -> Task<Void, Never>? in
                guard let task = state.inFlight[key], key != state.initializeRequest else { return nil }
                state.cancelledByClient.insert(key)
                return task
            }
            task?.cancel()
            let reason = params["reason"]?.stringValue ?? "no reason given"
            configuration.logger.info(
                "request cancelled by the client", metadata: ["id": id.serialized(), "reason": reason])
        default:
            // Unknown notifications are ignored, as JSON-RPC requires (no response to a notification).
            break
        }
    }
}

/// A request id as a dictionary key: `1` and `"1"` are different ids.
struct RequestKey: Hashable, Sendable {
    var text: String
    init(_ id: JSONValue) { text = id.serialized() }
}

/// What one client connection has established.
struct SessionState: Sendable {
    enum Phase: Sendable, Equatable {
        case awaitingInitialize
        case initializing
        case ready
    }

    var phase = Phase.awaitingInitialize
    /// The revision the handshake agreed on.
    var legacyVersion: String?
    /// What the client said it supports in the handshake.
    var clientCapabilities: JSONObject = [:]
    /// `logging/setLevel`: the least severe level sent as `notifications/message`; `nil` sends none.
    var logLevel: MCPLogLevel?
    var initializeRequest: RequestKey?
    var inFlight: [RequestKey: Task<Void, Never>] = [:]
    var cancelledByClient: Set<RequestKey> = []
    var shuttingDown = false
}
