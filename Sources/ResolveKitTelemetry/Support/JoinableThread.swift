import Glibc

/// A POSIX thread running one closure, which its owner joins: the metrics endpoint's loop.
struct JoinableThread: @unchecked Sendable {
    // @unchecked: `pthread_t` is an integer handle; only the owner joins it, once.
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread.
    /// - Throws: ``TelemetryError/Code/socketFailed`` when the thread cannot be created.
    init(_ body: @escaping @Sendable () -> Void) throws(TelemetryError) {
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
            throw TelemetryError(.socketFailed, "the metrics endpoint's thread could not start", errno: result)
        }
        self.thread = thread
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(thread, nil)
    }
}
