internal import CCurl
import Glibc

/// The descriptors the curl thread sleeps on: an `epoll` instance and what each descriptor is watched for.
final class EpollSet {
    /// A descriptor that is ready, with what libcurl should be told about it.
    struct Ready {
        var descriptor: Int32
        /// `CURL_CSELECT_IN`, `_OUT` and `_ERR` bits.
        var curlFlags: Int32
    }

    private let descriptor: Int32
    private var watched: [Int32: UInt32] = [:]
    private var events = [epoll_event](repeating: epoll_event(), count: 256)

    init() {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(descriptor >= 0, "epoll_create1 failed (errno \(errno))")
    }

    /// Watches `target` for reading and/or writing, replacing what it was watched for.
    func watch(_ target: Int32, in readable: Bool, out writable: Bool) {
        var mask: UInt32 = 0
        if readable { mask |= EPOLLIN.rawValue }
        if writable { mask |= EPOLLOUT.rawValue }
        guard watched[target] != mask else { return }
        var event = epoll_event()
        event.events = mask
        event.data.fd = target
        let operation = watched[target] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        if epoll_ctl(descriptor, operation, target, &event) != 0, errno == EEXIST || errno == ENOENT {
            // The number was reused after a close that epoll already forgot, or is still registered: the other
            // operation is the right one.
            _ = epoll_ctl(descriptor, operation == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, target, &event)
        }
        watched[target] = mask
    }

    /// The descriptors watched now: every socket libcurl has a transfer waiting on.
    var descriptors: Dictionary<Int32, UInt32>.Keys { watched.keys }

    /// Stops watching `target` (libcurl is about to close it, or has).
    func forget(_ target: Int32) {
        guard watched.removeValue(forKey: target) != nil else { return }
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, target, nil)
    }

    /// Sleeps until a descriptor is ready or `timeoutMilliseconds` pass (`-1`: no limit), and returns the ready ones.
    func wait(timeoutMilliseconds: Int32) -> [Ready] {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(descriptor, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        guard count > 0 else { return [] }
        return (0..<Int(count)).map { index in
            let event = events[index]
            var flags: Int32 = 0
            if event.events & EPOLLIN.rawValue != 0 { flags |= CURL_CSELECT_IN }
            if event.events & EPOLLOUT.rawValue != 0 { flags |= CURL_CSELECT_OUT }
            if event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { flags |= CURL_CSELECT_ERR }
            return Ready(descriptor: event.data.fd, curlFlags: flags)
        }
    }

    /// Closes the epoll instance.
    func close() {
        Glibc.close(descriptor)
    }
}
