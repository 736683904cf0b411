import Foundation
import ResolveKitCore
import Synchronization

/// What a turn task needs to know about the turn it runs.
struct TurnContext: Sendable {
    var sessionID: String
    var turnID: String
    var requestID: String
    var text: String
}

extension ReferenceBackend {
    /// Runs one turn the way the real orchestrator does (WireProtocol §7.1), driven by the agent model.
    func runTurn(_ turn: TurnContext) async {
        let date = now
        let start: (eligible: [RegisteredFunction], context: AgentContext)? = state.withLock { state in
            // Changed in place: a copy written back would copy the session's whole history on every turn.
            guard let index = state.sessions.index(forKey: turn.sessionID) else { return nil }
            let history = state.sessions.values[index].messages
            state.sessions.values[index].appendMessage(role: "user", content: turn.text, at: date)
            state.sessions.values[index].lastActivityAt = date
            let eligible = state.eligibleFunctions(for: state.sessions.values[index])
            let tools = eligible.map {
                AgentContext.Tool(name: $0.name, description: $0.description, parametersSchema: $0.parametersSchema)
            }
            let context = AgentContext(
                userText: turn.text, stored: history, llmContext: state.sessions.values[index].llmContext,
                tools: tools)
            return (eligible, context)
        }
        guard let (eligible, initialContext) = start else {
            finishTurn(turn)
            return
        }
        let model: any AgentModel = configuration.model ?? configuration.script
        var context = initialContext
        var results: [(name: String, text: String)] = []
        var toolRounds = 0
        var ended = false
        while !ended, toolRounds < configuration.maxToolRounds, !Task.isCancelled {
            let round = await model.nextRound(context)
            if Task.isCancelled { break }
            ended = true
            switch round {
            case .empty:
                break
            case .error(let code, let message):
                emit(
                    turn, "error",
                    .object([("code", .string(code)), ("message", .string(message)), ("recoverable", .bool(true))]))
            case .escalate(let reason):
                escalate(turn, reason: reason)
            case .rejection(let text):
                complete(turn, text: text, usage: nil, deltas: [])
            case .text(let template, let deltas):
                // Only script templates have placeholders; a real model's text is final as it is.
                let text =
                    configuration.model == nil ? Self.render(template, results: results, userText: turn.text) : template
                let usage = (prompt: 600 + 30 * (toolRounds + 1), completion: max(1, text.split(separator: " ").count))
                complete(turn, text: text, usage: usage, deltas: deltas)
            case .toolCalls(let calls):
                let steps = await runToolRound(calls, eligible: eligible, turn: turn)
                context.rounds.append(steps)
                results = steps.map { ($0.functionName, $0.result) }
                toolRounds += 1
                ended = false
            }
        }
        if !ended, !Task.isCancelled, toolRounds >= configuration.maxToolRounds {
            escalate(turn, reason: "Maximum tool calling rounds exceeded")
        }
        finishTurn(turn)
    }

    private func runToolRound(_ calls: [AgentScript.ToolCall], eligible: [RegisteredFunction], turn: TurnContext) async
        -> [AgentContext.ToolStep]
    {
        var plan: [(call: AgentScript.ToolCall, callID: String, function: RegisteredFunction?)] = []
        state.withLock { state in
            state.sessions[turn.sessionID]?.skipHiddenRows(1 + calls.count)
            for call in calls {
                let callID = Identifiers.callID()
                let function = eligible.first { $0.name == call.functionName }
                plan.append((call, callID, function))
                guard let function else { continue }
                state.sessions[turn.sessionID]?.pendingCalls[callID] = PendingCall(
                    turnID: turn.turnID, functionName: function.name)
                let payload = WireJSON.object([
                    ("call_id", .string(callID)), ("function_name", .string(function.name)),
                    ("arguments", WireJSON(sorted: call.arguments)), ("timeout_seconds", .int(function.timeoutSeconds)),
                    ("human_description", .string(call.humanDescription ?? "I will run \(function.name)")),
                    ("requires_approval", .bool(function.requiresApproval)),
                ])
                appendEvent(turn, "tool_call_request", payload, state: &state)
                state.counters.toolCallsEmitted += 1
            }
        }
        changes.notify(session: turn.sessionID)
        // The first call's time starts now (§7.3), even if a client that does not read holds up the write below;
        // each later call's starts when the previous wait ends.
        var firstCallTime = plan.lazy.compactMap(\.function).first.map {
            countdown(configuration.clock, from: .seconds($0.timeoutSeconds))
        }
        await flushStreams(of: turn.sessionID)
        // The fault "backend restarts mid-turn": this turn's own task is cancelled by the restart.
        if let lockHeldFor = configuration.faults.takeRestartAfterToolCalls() {
            restartMidTurn(lockHeldFor: lockHeldFor)
            return []
        }
        var results: [AgentContext.ToolStep] = []
        for entry in plan {
            let name = entry.call.functionName
            func step(_ text: String) -> AgentContext.ToolStep {
                AgentContext.ToolStep(
                    callID: entry.callID, functionName: name, arguments: entry.call.arguments, result: text)
            }
            guard let function = entry.function else {
                results.append(step(ToolOutcome.failure("Function '\(name)' is not available").modelText))
                continue
            }
            let remaining = firstCallTime ?? countdown(configuration.clock, from: .seconds(function.timeoutSeconds))
            firstCallTime = nil
            let waited = await waitForResult(sessionID: turn.sessionID, callID: entry.callID, remaining: remaining)
            // Removing the call and reading a result that raced the timer happen under one lock, so a result the
            // endpoint accepted is always the one the model gets ("accepted" counts stay exact).
            let outcome = state.withLock { state in
                let pending = state.sessions[turn.sessionID]?.pendingCalls.removeValue(forKey: entry.callID)
                let outcome = waited ?? pending?.result
                if outcome == nil, !Task.isCancelled { state.counters.timedOutCalls.insert(entry.callID) }
                return outcome
            }
            let failure = ToolOutcome.failure("Function '\(function.name)' timed out after \(function.timeoutSeconds)s")
            results.append(step((outcome ?? failure).modelText))
        }
        return results
    }

    /// The call's result once posted; `nil` when its time ran out first (`remaining`), the backend stopped or the
    /// turn was cancelled.
    private func waitForResult(
        sessionID: String, callID: String, remaining: @Sendable () -> Duration
    ) async -> ToolOutcome? {
        let deadline = WaitDeadline(in: remaining(), clock: configuration.clock)
        while !Task.isCancelled {
            let generation = changes.generation(of: sessionID)
            let (result, gone) = state.withLock { state in
                (state.sessions[sessionID]?.pendingCalls[callID]?.result, state.stopped)
            }
            if let result { return result }
            if gone { return nil }
            guard !deadline.hasPassed, await changes.wait(after: generation, session: sessionID, until: deadline)
            else { return nil }
        }
        return nil
    }

    private func complete(_ turn: TurnContext, text: String, usage: (prompt: Int, completion: Int)?, deltas: [String]) {
        let date = now
        state.withLock { state in
            var accumulated = ""
            for delta in deltas {
                accumulated += delta
                appendEvent(
                    turn, "assistant_text_delta",
                    .object([("delta", .string(delta)), ("accumulated", .string(accumulated))]), state: &state)
            }
            state.sessions[turn.sessionID]?.appendMessage(
                role: "assistant", content: text, tokenCount: usage?.completion, at: date)
            let usageJSON: WireJSON =
                usage.map {
                    .object([("prompt_tokens", .int($0.prompt)), ("completion_tokens", .int($0.completion))])
                } ?? .null
            appendEvent(
                turn, "turn_complete", .object([("full_text", .string(text)), ("usage", usageJSON)]), state: &state)
            if usage != nil {
                appendEvent(turn, "feedback_requested", .object([("immediate", .bool(false))]), state: &state)
            }
        }
        changes.notify(session: turn.sessionID)
    }

    private func escalate(_ turn: TurnContext, reason: String) {
        state.withLock { state in
            state.sessions[turn.sessionID]?.status = .escalated
            appendEvent(turn, "session_escalated", .object([("reason", .string(reason))]), state: &state)
        }
        changes.notify(session: turn.sessionID)
    }

    private func emit(_ turn: TurnContext, _ type: String, _ payload: WireJSON) {
        state.withLock { appendEvent(turn, type, payload, state: &$0) }
        changes.notify(session: turn.sessionID)
    }

    private func finishTurn(_ turn: TurnContext) {
        state.withLock { state in
            // A turn lost by a restart keeps its lock until the lock's timer releases it.
            let lost = state.sessions[turn.sessionID]?.lostTurnID == turn.turnID
            if state.sessions[turn.sessionID]?.activeTurnID == turn.turnID, !lost {
                state.sessions[turn.sessionID]?.activeTurnID = nil
                if configuration.toolResultSemantics == .inMemory {
                    state.sessions[turn.sessionID]?.dedupeKeys.removeAll()
                }
            }
            if let pending = state.sessions[turn.sessionID]?.pendingCalls {
                state.sessions[turn.sessionID]?.pendingCalls = pending.filter { $0.value.turnID != turn.turnID }
            }
            state.turnTasks.removeValue(forKey: turn.turnID)
            state.counters.turnsEnded += 1
        }
        changes.notify(session: turn.sessionID)
    }

    /// Appends an event to a session's stream (call with the state locked, then notify).
    func appendEvent(_ turn: TurnContext, _ type: String, _ payload: WireJSON, state: inout BackendState) {
        let date = now
        let (id, position) = state.eventIDs.next(millis: PythonTime.unixMilliseconds(date))
        let envelope = WireJSON.object([
            ("event_id", .string(id)), ("turn_id", .string(turn.turnID)), ("request_id", .string(turn.requestID)),
            ("timestamp", .string(PythonTime.isoformat(date))), ("type", .string(type)), ("payload", payload),
        ])
        let frame = Array("id: \(id)\nevent: \(type)\ndata: \(envelope.text(.python))\n\n".utf8)
        state.sessions[turn.sessionID]?.events.append(
            StoredEvent(id: id, position: position, type: type, turnID: turn.turnID, frame: frame))
    }

    /// Fills `{name}`, `{result}`, `{nameN}`, `{resultN}` and `{text}` of a text template. A call that failed is
    /// said to have failed, with its error: `The x returned "{result}".` becomes `The x call failed: <error>.`, a
    /// lone `{result}` `failed: <error>`, and a leading `Done.` says that it was not (all failed) or only partly.
    static func render(_ template: String, results: [(name: String, text: String)], userText: String) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var text = template
        let failures = results.map { ReadableResult.failure($0.text) }
        if text.hasPrefix("Done."), failures.contains(where: { $0 != nil }) {
            let prefix = failures.allSatisfy { $0 != nil } ? "That did not work." : "Only partly done."
            text = prefix + String(text.dropFirst("Done.".count))
        }
        // Each placeholder is replaced in turn (a result's own text can hold a later placeholder), but only when
        // the text holds it: most templates name one or two of them, and every replacement goes through NSString.
        func replace(_ placeholder: String, with value: @autoclosure () -> String) {
            guard text.utf8.firstRange(of: placeholder.utf8) != nil else { return }
            text = text.replacingOccurrences(of: placeholder, with: value())
        }
        // A structured result reads as lines (ReadableResult), never as a JSON dump; a string is quoted as it is.
        func place(_ key: String, _ result: (name: String, text: String)) {
            guard text.utf8.firstRange(of: "{\(key)}".utf8) != nil else { return }
            if let error = ReadableResult.failure(result.text) {
                let sentence = error.hasSuffix(".") ? error : error + "."
                replace(" returned \"{\(key)}\".", with: " call failed: " + sentence)
                replace("{\(key)}", with: "failed: " + error)
            } else if let lines = ReadableResult.lines(result.text) {
                replace(" \"{\(key)}\".", with: ":\n" + lines)
                replace("{\(key)}", with: lines)
            } else {
                replace("{\(key)}", with: result.text)
            }
        }
        for (index, result) in results.enumerated().reversed() {
            replace("{name\(index + 1)}", with: result.name)
            place("result\(index + 1)", result)
        }
        if let first = results.first {
            replace("{name}", with: first.name)
            place("result", first)
        }
        replace("{text}", with: userText)
        return text
    }
}
