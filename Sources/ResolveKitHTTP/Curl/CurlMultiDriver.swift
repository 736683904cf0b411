internal import CCurl
import Glibc

/// Runs on the curl thread only: applies the loop's commands and drives the multi handle event by event with
/// `curl_multi_socket_action` on `epoll`. libcurl says which sockets to watch (the socket callback) and when it next
/// needs a timeout action (the timer callback), so a wake-up touches only the socket that is ready: a keep-alive on
/// one of a thousand idle streams costs one transfer's work, not a walk over every transfer.
///
/// Long-lived streams come first. Starting a request, or serving its socket, costs this thread tens of
/// microseconds (the loopback or TLS send path runs on it), so a burst of a hundred requests once held it for
/// milliseconds while stream events waited unread. Each turn of the loop now serves every ready stream socket, then
/// starts at most ``requestWorkPerTurn`` waiting requests and serves at most as many ready request sockets; what is
/// left waits for the next turn, which comes at once.
final class CurlMultiDriver {
    /// How many requests a turn starts, and how many request sockets it serves, before the streams are looked at
    /// again. With `rk-bench sessions` (100 sessions asking at once), 1 to 6 measured alike, and all of them well
    /// ahead of no limit, in throughput as well as in how long an event waits.
    static let requestWorkPerTurn = 3

    private let multi: MultiHandle
    private let loop: CurlLoop
    private let poller: EpollSet
    private var active: [Int: CurlTransfer] = [:]
    private var idsByHandle: [UnsafeMutableRawPointer: Int] = [:]
    /// When libcurl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`; `nil` when it set no timer.
    private var timerDeadline: ContinuousClock.Instant?
    private var waitingRequests = WaitingRequests()
    /// The sockets of long-lived transfers (``HTTPRequest/isLongLived``), served before any other.
    private var streamSockets: Set<Int32> = []
    /// Handles for requests (at most 64 kept idle, 1.6 MiB); a stream's handle lives as long as the stream and is
    /// freed with it.
    private var handles = EasyHandlePool(capacity: 64)

    init(multi: MultiHandle, loop: CurlLoop) {
        self.multi = multi
        self.loop = loop
        self.poller = EpollSet()
    }

    /// The thread's body; returns after ``CurlLoop/stop()`` was requested and everything was torn down.
    func run() {
        let this = Unmanaged.passUnretained(self).toOpaque()
        _ = rk_curl_multi_set_socket_callback(multi.pointer, Self.socketCallback, this)
        _ = rk_curl_multi_set_timer_callback(multi.pointer, Self.timerCallback, this)
        poller.watch(multi.wakeDescriptor, in: true, out: false)
        while true {
            let (commands, stopping) = loop.takeCommands()
            for command in commands { accept(command) }
            if stopping { break }
            for _ in 0..<Self.requestWorkPerTurn {
                guard let transfer = waitingRequests.popFirst() else { break }
                start(transfer)
            }
            runDueTimer()
            collectFinished()
            serve(poller.wait(timeoutMilliseconds: waitingRequests.isEmpty ? waitMilliseconds() : 0))
            runDueTimer()
            collectFinished()
        }
        for transfer in waitingRequests.removeAll() { transfer.curlCompleted(.shutdownError) }
        for id in Array(active.keys) { finish(id, with: .shutdownError) }
        let (late, waiters) = loop.markStopped()
        for case .add(let transfer) in late { transfer.curlCompleted(.shutdownError) }
        handles.removeAll()
        multi.cleanup()
        poller.close()
        for waiter in waiters { waiter.resume() }
    }

    /// Serves the ready stream sockets, then at most ``requestWorkPerTurn`` others. `epoll` is level-triggered: a
    /// socket left for later is reported again by the next wait, which does not sleep while one is ready.
    private func serve(_ ready: [EpollSet.Ready]) {
        var running: Int32 = 0
        for socket in ready where streamSockets.contains(socket.descriptor) {
            curl_multi_socket_action(multi.pointer, socket.descriptor, socket.curlFlags, &running)
        }
        var budget = Self.requestWorkPerTurn
        for socket in ready where !streamSockets.contains(socket.descriptor) {
            if socket.descriptor == multi.wakeDescriptor {
                drainWakeups()
            } else if budget > 0 {
                budget -= 1
                curl_multi_socket_action(multi.pointer, socket.descriptor, socket.curlFlags, &running)
            }
        }
    }

    /// How long `epoll_wait` may sleep: until libcurl's timer, or for ever (a command wakes it through the eventfd).
    private func waitMilliseconds() -> Int32 {
        guard let deadline = timerDeadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private func runDueTimer() {
        guard let deadline = timerDeadline, ContinuousClock.now >= deadline else { return }
        timerDeadline = nil
        var running: Int32 = 0
        curl_multi_socket_action(multi.pointer, RK_CURL_SOCKET_TIMEOUT, 0, &running)
    }

    private func drainWakeups() {
        var count: UInt64 = 0
        _ = read(multi.wakeDescriptor, &count, 8)
    }

    private static let socketCallback: rk_curl_socket_callback = { easy, socket, what, userdata, _ in
        guard let userdata else { return 0 }
        let driver = Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue()
        switch what {
        case CURL_POLL_REMOVE:
            driver.poller.forget(socket)
            driver.streamSockets.remove(socket)
        default:
            // A connection kept alive may carry a stream after a request, or the other way round.
            if let easy, let id = driver.idsByHandle[easy], driver.active[id]?.transfer.request.isLongLived == true {
                driver.streamSockets.insert(socket)
            } else {
                driver.streamSockets.remove(socket)
            }
            driver.poller.watch(
                socket, in: what == CURL_POLL_IN || what == CURL_POLL_INOUT,
                out: what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
        }
        return 0
    }

    private static let timerCallback: rk_curl_timer_callback = { _, milliseconds, userdata in
        guard let userdata else { return 0 }
        let driver = Unmanaged<CurlMultiDriver>.fromOpaque(userdata).takeUnretainedValue()
        // Never call into libcurl from here: the loop runs the timeout action when the deadline comes.
        driver.timerDeadline = milliseconds < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        return 0
    }

    /// A stream starts at once; a request waits its turn behind the others. A cancelled request that never started
    /// is never sent.
    private func accept(_ command: CurlLoop.Command) {
        switch command {
        case .add(let transfer):
            if transfer.request.isLongLived {
                start(transfer)
            } else {
                waitingRequests.append(transfer)
            }
        case .cancel(let id, let error):
            if let transfer = waitingRequests.remove(id: id) {
                transfer.curlCompleted(error)
                return
            }
            // Nothing arrived in time (the event stream's idle watchdog): as when libcurl's own deadline passes.
            if error.code == .timedOut, let curlTransfer = active[id] { shutDownConnection(of: curlTransfer.easy) }
            finish(id, with: error)
        case .unpause(let id):
            guard let curlTransfer = active[id] else { return }
            // libcurl sets a zero timer for an unpaused transfer; the loop's timeout action resumes it.
            curl_easy_pause(curlTransfer.easy, RK_CURLPAUSE_CONT)
        }
    }

    private func start(_ transfer: Transfer) {
        let isLongLived = transfer.request.isLongLived
        guard let easy = isLongLived ? curl_easy_init() : handles.take() else {
            transfer.curlCompleted(HTTPError(code: .transportFailed, message: "curl_easy_init failed: out of memory"))
            return
        }
        do throws(HTTPError) {
            let curlTransfer = try CurlTransfer(transfer: transfer, easy: easy, configuration: loop.configuration)
            let code = curl_multi_add_handle(multi.pointer, easy)
            guard code == CURLM_OK else {
                curlTransfer.cleanUp()
                release(easy, isLongLived: isLongLived)
                transfer.curlCompleted(
                    HTTPError(code: .transportFailed, message: "curl_multi_add_handle failed (\(code.rawValue))"))
                return
            }
            active[transfer.id] = curlTransfer
            idsByHandle[easy] = transfer.id
        } catch {
            release(easy, isLongLived: isLongLived)
            transfer.curlCompleted(error)
        }
    }

    private func release(_ easy: UnsafeMutableRawPointer, isLongLived: Bool) {
        if isLongLived { curl_easy_cleanup(easy) } else { handles.giveBack(easy) }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi.pointer, &queued) {
            guard rk_curl_msg_is_done(message), let easy = message.pointee.easy_handle,
                let id = idsByHandle[easy]
            else { continue }
            let result = rk_curl_msg_result(message)
            guard let curlTransfer = active[id] else { continue }
            if result == CURLE_OPERATION_TIMEDOUT { shutDownConnection(of: easy) }
            finish(id, with: result == CURLE_OK ? nil : curlTransfer.error(for: result))
        }
    }

    /// Shuts down the connection a timed-out transfer leaves behind (libcurl's deadline passed, or the event stream's
    /// idle watchdog gave up on it). libcurl closes an HTTP/1.1 connection whose request timed out, but keeps an
    /// HTTP/2 one, which every request and event stream to that server shares: if the connection stalled (a proxy or
    /// NAT that stopped forwarding it), each retry and reconnect would go over it again and time out too, until TCP
    /// gave up many minutes later. Shut down, it fails what still uses it at once, and libcurl opens a new connection
    /// for what comes next. Must run before the handle leaves the multi handle: libcurl finds the connection through
    /// it.
    private func shutDownConnection(of easy: UnsafeMutableRawPointer) {
        var socket = curl_socket_t(-1)
        if rk_curl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK || socket < 0 {
            // A transfer still running (the event stream's watchdog gave up on it, or on its response head): its
            // socket is the one the thread waits on whose ends are the transfer's (a client has few sockets to look
            // through). Over HTTP/1.1 it is the transfer's own, which libcurl would close anyway; the version is
            // not asked, since a transfer still waiting for its head has none yet.
            guard let ends = ConnectionEndpoints(transfer: easy),
                let found = poller.descriptors.first(where: { ConnectionEndpoints(socket: $0) == ends })
            else { return }
            socket = found
        }
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Removes the transfer from the multi handle, frees its easy handle, and reports the outcome.
    private func finish(_ id: Int, with error: HTTPError?) {
        guard let curlTransfer = active.removeValue(forKey: id) else { return }
        idsByHandle[curlTransfer.easy] = nil
        curl_multi_remove_handle(multi.pointer, curlTransfer.easy)
        if error == nil { curlTransfer.deliverHeadIfNeeded() }
        curlTransfer.reportExchange(failure: error)
        curlTransfer.cleanUp()
        release(curlTransfer.easy, isLongLived: curlTransfer.transfer.request.isLongLived)
        curlTransfer.transfer.curlCompleted(error)
    }
}
