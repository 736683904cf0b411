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
        logger.info("connection \(state)")
        emit(.connectionStateChanged(state))
    }

    func append(_ message: ResolveKitChatMessage) {
        update { $0.appendMessage(message) }
        emit(.messageAppended(message))
    }

    func system(_ text: String) {
        append(ResolveKitChatMessage(id: "local-" + UUIDText.make(), role: .system, text: text))
    }

    /// Records a line in `executionLog` and the logger. Never pass secrets.
    func log(_ line: String, level: ResolveKitLogger.Level = .debug) {
        update { $0.log(line) }
        logger.log(level, line)
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

/// Lower-case UUID text, as the reference SDK uses for ids.
enum UUIDText {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        hex[6] = "4" + hex[6].dropFirst()
        hex[8] = ["8", "9", "a", "b"][Int(bytes[8] & 3)] + hex[8].dropFirst()
        let text = hex.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}
