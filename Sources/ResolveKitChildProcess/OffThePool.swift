import Foundation

/// Runs `body` on a thread of its own and returns what it returns: for blocking work (waiting for a child process,
/// reading a pipe or a socket) that must not hold one of the few cooperative threads every task of the process
/// shares while it waits.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Runs `body` on a thread of its own and returns what it returns or throws what it throws.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
