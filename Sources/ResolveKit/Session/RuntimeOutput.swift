/// How the engine changes what hosts observe: the snapshot behind ``ResolveKitRuntime``'s properties, the event
/// broadcast, and the logger. The runtime builds it; the engine never holds the runtime itself.
struct RuntimeOutput: Sendable {
    let update: @Sendable (_ change: (inout RuntimeSnapshot) -> Void) -> Void
    let emit: @Sendable (ResolveKitRuntimeEvent) -> Void
    let read: @Sendable () -> RuntimeSnapshot
    let logger: ResolveKitLogger

    func setState(_ state: ResolveKitConnectionState) {
        var changed = false
        update { snapshot in
            changed = snapshot.connectionState != state
            snapshot.connectionState = state
        }
        guard changed else { return }
        // A run that ended blocked or failed needs someone (but a key another replica serves is routing, not a
        // fault); a retry is worth a look; the rest is routine.
        let level: ResolveKitLogger.Level =
            switch state {
            case .blocked(let error) where error.code == .keyOwnedElsewhere: .info
            case .blocked, .failed: .error
            case .reconnecting: .warning
            default: .info
            }
        logger.log(level, "connection \(state)")
        emit(.connectionStateChanged(state))
    }

    func append(_ message: ResolveKitChatMessage) {
        update { $0.appendMessage(message) }
        emit(.messageAppended(message))
    }

    func system(_ text: String) {
        append(ResolveKitChatMessage(id: "local-" + UUIDText.make(), role: .system, text: text))
    }

    /// Records a line in `executionLog` and the logger, with `metadata` (a turn's `trace_id` and `span_id`) in the
    /// logger's record. Never pass secrets.
    func log(_ line: String, level: ResolveKitLogger.Level = .debug, metadata: [String: String] = [:]) {
        update { $0.log(line) }
        logger.log(level, line, metadata: metadata)
    }

    func fail(_ error: ResolveKitError) {
        update { $0.lastError = error }
        logger.error("\(error)")
        emit(.error(error))
    }

    func updateItem(_ item: ToolCallChecklistItem) {
        update { $0.updateItem(item) }
        emit(.toolCallUpdated(item))
    }
}
