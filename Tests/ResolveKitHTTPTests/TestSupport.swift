import Glibc
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization

/// Deterministic pseudo-random bytes, generated a word at a time so debug builds stay quick.
func patternBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var words = [UInt64](repeating: 0, count: (count + 7) / 8)
    var state = seed
    words.withUnsafeMutableBufferPointer { buffer in
        for index in buffer.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            buffer[index] = state
        }
    }
    return words.withUnsafeBytes { Array($0.prefix(count)) }
}

/// Whether two byte arrays are equal, compared with `memcmp` so debug builds stay quick.
func sameBytes(_ lhs: [UInt8], _ rhs: some Collection<UInt8>) -> Bool {
    let rhs = Array(rhs)
    guard lhs.count == rhs.count else { return false }
    guard !lhs.isEmpty else { return true }
    return lhs.withUnsafeBytes { left in
        rhs.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
    }
}

/// Whether `bytes` continue an endless repetition of `pattern` at `offset` (the running total received so far).
func continuesRepeating(_ pattern: [UInt8], at offset: Int, _ bytes: [UInt8]) -> Bool {
    var position = 0
    while position < bytes.count {
        let start = (offset + position) % pattern.count
        let length = min(pattern.count - start, bytes.count - position)
        guard sameBytes(Array(pattern[start..<start + length]), bytes[position..<position + length]) else {
            return false
        }
        position += length
    }
    return true
}

/// A flag the test flips and a server handler waits for (with a bound), to hold a response at a chosen point.
final class Gate: Sendable {
    private let opened = Mutex(false)

    func open() { opened.withLock { $0 = true } }

    var isOpen: Bool { opened.withLock { $0 } }

    /// Waits until the gate opens or `stop` holds; bounded to 20 s.
    func wait(orUntil stop: () -> Bool = { false }) async {
        _ = await pollUntil(timeout: .seconds(20)) { isOpen || stop() }
    }
}

/// A streaming handler that sends `hello` and then holds the stream open until the client goes away.
let holdOpenHandler: LoopbackHandler = { _ in
    LoopbackResponse(
        status: 200, headers: [("Content-Type", "text/event-stream")],
        body: .stream { writer in
            try await writer.write(Array("hello".utf8))
            _ = await pollUntil(timeout: .seconds(20)) { writer.isClientGone }
        })
}

/// The ``HTTPError`` code of a failed result, or `nil` when it succeeded or failed otherwise.
func httpErrorCode<T>(_ result: Result<T, any Error>) -> HTTPError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? HTTPError)?.code
}
