internal import CCurl
import Glibc

/// A detached, named thread running one closure.
struct CurlThread {
    private final class Box {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    private let name: String
    private let body: @Sendable () -> Void

    /// A thread called `name` (Linux keeps its first 15 bytes) that will run `body`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Starts the thread; `false` when the system refused.
    func start() -> Bool {
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                _ = rk_set_thread_name(box.name)
                box.body()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
