import Glibc

/// A detached POSIX thread running one closure; the owner learns of its end through its own state, not a join.
struct LoopbackThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let body: @Sendable () -> Void

    /// Creates a thread description; nothing runs until ``start()``.
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts the thread detached.
    func start() throws(LoopbackServerError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw LoopbackServerError(code: .resourceFailed, message: "pthread_create failed", errno: result)
        }
        pthread_detach(thread)
    }
}
