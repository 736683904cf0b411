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
    /// A random (version 4) UUID, e.g. `0f8fad5b-d9cb-469f-a165-70867728950e`. Two draws of the system generator:
    /// each draw is a system call, and a message sends one of these.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            return String(unsafeUninitializedCapacity: 36) { text in
                var count = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    text[count] = hexDigits[Int(byte >> 4)]
                    text[count + 1] = hexDigits[Int(byte & 0x0F)]
                    count += 2
                }
                return count
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
