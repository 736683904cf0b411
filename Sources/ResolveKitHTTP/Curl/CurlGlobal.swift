internal import CCurl
import Glibc

/// Process-wide libcurl set-up, run once.
enum CurlGlobal {
    private static let result: CURLcode = curl_global_init(RK_CURL_GLOBAL_DEFAULT)

    /// Runs `curl_global_init` the first time it is called (thread-safe; Swift initialises statics once).
    static func initialise() {
        _ = result
    }

    /// Whether the linked libcurl supports HTTP/3.
    static let supportsHTTP3: Bool = rk_curl_supports_http3()

    /// The linked libcurl's version, e.g. `7.88.1`.
    static let version: String = String(cString: rk_curl_version_string())
}

/// A detached thread running one closure.
struct CurlThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts the thread; `false` when the system refused.
    func start() -> Bool {
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
            return false
        }
        pthread_detach(thread)
        return true
    }
}
