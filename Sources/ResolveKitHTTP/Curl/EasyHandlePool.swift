internal import CCurl

/// Easy handles of finished requests, reset and kept for the next ones, as libcurl advises. Creating a handle
/// allocates about 25 KiB (its state and its 16 KiB receive buffer) and freeing it gives them back, on the curl
/// thread, for every request; `curl_easy_reset` (in ``CurlTransfer/cleanUp()``) keeps the memory and clears every
/// option. With `rk-bench sessions` (100 sessions asking at once) the curl thread spent about a tenth less CPU,
/// with malloc's consolidation gone from its profile. Used on the curl thread only.
struct EasyHandlePool {
    /// How many idle handles are kept (at most about 25 KiB each); the handles of a larger burst are freed.
    let capacity: Int
    private var idle: [UnsafeMutableRawPointer] = []

    /// A pool keeping at most `capacity` idle handles.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// An idle handle, or a new one; `nil` when libcurl is out of memory.
    mutating func take() -> UnsafeMutableRawPointer? {
        idle.popLast() ?? curl_easy_init()
    }

    /// Keeps `easy` for a later request, or frees it when the pool is full. The handle must be out of the multi
    /// handle and reset (``CurlTransfer/cleanUp()``).
    mutating func giveBack(_ easy: UnsafeMutableRawPointer) {
        if idle.count < capacity {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    /// Frees every idle handle.
    mutating func removeAll() {
        for easy in idle { curl_easy_cleanup(easy) }
        idle = []
    }
}
