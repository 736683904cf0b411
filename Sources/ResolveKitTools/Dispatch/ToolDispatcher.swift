import Synchronization

/// Runs one tool call: finds the function, refuses what is not allowed, coerces and validates the arguments
/// against the schema, and invokes the function with a deadline and cooperative cancellation.
///
/// Every failure becomes a ``ToolCallOutcome/failure(_:)`` with a message the model can act on; nothing throws.
package struct ToolDispatcher: Sendable {
    package let registry: ResolveKitRegistry
    package let clock: ResolveKitClock
    package let logger: ResolveKitLogger
    package let dependencies: ResolveKitDependencies

    /// Creates a dispatcher for the functions of `registry`.
    package init(
        registry: ResolveKitRegistry, clock: ResolveKitClock, logger: ResolveKitLogger,
        dependencies: ResolveKitDependencies
    ) {
        self.registry = registry
        self.clock = clock
        self.logger = logger
        self.dependencies = dependencies
    }

    /// Checks that the call's function is registered and allowed in the session; the arguments are checked when
    /// it is about to run (``prepare(_:allowedNames:)``).
    package func check(_ call: PendingToolCall, allowedNames: Set<String>) -> Result<Void, ResolveKitFunctionError> {
        guard registry.entry(named: call.functionName) != nil else {
            return .failure(.unknownFunction(call.functionName))
        }
        guard allowedNames.contains(call.functionName) else { return .failure(.notAllowed(call.functionName)) }
        return .success(())
    }

    /// Checks a call without running it: the function, the session's allow-list and the arguments.
    /// - Returns: the function and the coerced arguments, or the error result to send instead.
    package func prepare(
        _ call: PendingToolCall,
        allowedNames: Set<String>
    ) -> Result<(function: any AnyResolveKitFunction.Type, arguments: JSONObject), ResolveKitFunctionError> {
        if case .failure(let refusal) = check(call, allowedNames: allowedNames) { return .failure(refusal) }
        guard let entry = registry.entry(named: call.functionName) else {
            return .failure(.unknownFunction(call.functionName))
        }
        guard case .object = call.arguments else {
            return .failure(
                .invalidArguments(
                    "Invalid arguments: expected a JSON object, got \(call.arguments.typeName)"))
        }
        let coerced = entry.schema.coerce(call.arguments)
        let violations = entry.schema.validate(coerced)
        guard violations.isEmpty else {
            return .failure(
                .invalidArguments(
                    "Invalid arguments: " + violations.map(\.description).joined(separator: "; ")))
        }
        return .success((entry.function, coerced.objectValue ?? [:]))
    }

    /// Starts a prepared function before it returns; ``RunningCall/outcome()`` waits until it returns, throws, or
    /// `deadline` passes (then the task is cancelled and the result is "Timed out after Ns"; a function that
    /// ignores cancellation runs on, but its late result is dropped). `onFinish` gets the outcome on the thread that
    /// settled it, before any waiter resumes.
    ///
    /// The function's task runs on the caller's thread until its first suspension, so under load a call does not
    /// wait its turn in the cooperative pool's queue behind every other session's work. That holds the caller (a
    /// session) meanwhile: a function that runs longer than ``inlineBudget`` before its first suspension is
    /// reported once, and its later calls start on a task of their own.
    ///
    /// The function sees `spanContext` in its context, and its logger puts that context's `trace_id` and `span_id`
    /// on every line.
    package func start(
        _ function: any AnyResolveKitFunction.Type,
        arguments: JSONObject,
        call: PendingToolCall,
        sessionID: String,
        deadline: Duration,
        spanContext: SpanContext? = nil,
        progress: (@Sendable (Double, Double?, String?) -> Void)? = nil,
        onFinish: (@Sendable (ToolCallOutcome) -> Void)? = nil
    ) -> RunningCall {
        let remaining = deadline - clock.elapsed
        var functionLogger = logger.labeled("function.\(call.functionName)")
        functionLogger.spanContext = spanContext
        var invocation = ResolveKitFunctionContext(
            sessionID: sessionID, requestID: call.requestID, turnID: call.turnID, callID: call.callID,
            deadline: ContinuousClock.now.advanced(by: remaining), logger: functionLogger,
            dependencies: dependencies, spanContext: spanContext)
        if let progress { invocation.progressHandler = progress }
        let context = invocation
        // One line per execution, so an operator (or a test counting executions across processes) sees each run.
        logger.debug(
            "function started",
            metadata: ["function": call.functionName, "call_id": call.callID.rawValue, "session_id": sessionID])
        let immediately = !InlineStarts.isOffloaded(function)
        let began = ContinuousClock.now
        let timeoutSeconds = call.timeoutSeconds
        var settled: (@Sendable (DeadlineRace<JSONValue>.Result) -> Void)?
        if let onFinish {
            settled = { result in onFinish(RunningCall.outcome(result, timeoutSeconds: timeoutSeconds)) }
        }
        let race = DeadlineRace<JSONValue>(clock: clock).start(
            until: deadline, immediately: immediately, onSettle: settled
        ) {
            try await function.invoke(arguments: arguments, context: context)
        }
        if immediately {
            let held = ContinuousClock.now - began
            if held > Self.inlineBudget, InlineStarts.offload(function) {
                let milliseconds = held.components.seconds * 1000 + held.components.attoseconds / 1_000_000_000_000_000
                functionLogger.warning(
                    "Function \(call.functionName) ran \(milliseconds) ms before its first suspension, holding the "
                        + "thread that dispatched it (and its session); its calls now start on a task of their own. "
                        + "Run blocking work on a thread of its own.")
            }
        }
        return RunningCall(race: race, timeoutSeconds: call.timeoutSeconds)
    }

    /// How long a function may run on its caller's thread before its first suspension (see ``start``).
    package static let inlineBudget = Duration.milliseconds(20)
}

/// The functions that ran too long before their first suspension: their calls start on tasks of their own. A
/// property of the function's code, so kept for the process.
private enum InlineStarts {
    private static let offloaded = Mutex<Set<ObjectIdentifier>>([])

    static func isOffloaded(_ function: any AnyResolveKitFunction.Type) -> Bool {
        offloaded.withLock { $0.contains(ObjectIdentifier(function)) }
    }

    /// Records `function`; `true` the first time.
    static func offload(_ function: any AnyResolveKitFunction.Type) -> Bool {
        offloaded.withLock { $0.insert(ObjectIdentifier(function)).inserted }
    }
}

/// A call whose function is running: ``outcome()`` waits for its end; ``cancel()`` ends it as cancelled.
package struct RunningCall: Sendable {
    let race: DeadlineRace<JSONValue>.Running
    let timeoutSeconds: Int

    /// The call's outcome; a cancelled waiter cancels the call.
    package func outcome() async -> ToolCallOutcome {
        Self.outcome(await race.result(), timeoutSeconds: timeoutSeconds)
    }

    /// How a race's end reads as a call's outcome.
    static func outcome(_ result: DeadlineRace<JSONValue>.Result, timeoutSeconds: Int) -> ToolCallOutcome {
        switch result {
        case .finished(.success(let value)):
            return .success(value)
        case .finished(.failure(let error as ResolveKitFunctionError)):
            return .failure(error)
        case .finished(.failure(let error as TypeCoercionError)):
            return .failure(.invalidArguments("Invalid arguments: \(error)"))
        case .finished(.failure(is CancellationError)):
            return .failure(.cancelled("Cancelled before it finished"))
        case .finished(.failure(let error)):
            return .failure(.executionFailed(String(describing: error)))
        case .timedOut:
            return .failure(.timedOut(after: timeoutSeconds))
        case .cancelled:
            return .failure(.cancelled("Cancelled before it finished"))
        }
    }

    /// Cancels the function and settles the call as cancelled.
    package func cancel() { race.cancel() }
}
