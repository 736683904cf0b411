import Glibc

/// A detached POSIX thread running one closure: a connection's I/O runs on a thread of its own, never on the
/// cooperative pool.
enum RedisThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread.
    /// - Throws: ``RedisError`` when the system refuses a thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws(RedisError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw RedisError(.connectFailed, "Cannot start the connection's thread", errno: result)
        }
        pthread_detach(thread)
    }
}
