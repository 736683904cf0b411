internal import CCurl

/// Runs on the curl thread only: applies the loop's commands, drives the multi handle with `curl_multi_perform` and
/// `curl_multi_poll` (which sleeps until a socket is ready, a curl timer is due, or `curl_multi_wakeup`), and reports
/// finished transfers.
final class CurlMultiDriver {
    private let multi: UnsafeMutableRawPointer
    private let loop: CurlLoop
    private var active: [Int: CurlTransfer] = [:]
    private var idsByHandle: [UnsafeMutableRawPointer: Int] = [:]

    init(multi: MultiHandle, loop: CurlLoop) {
        self.multi = multi.pointer
        self.loop = loop
    }

    /// The thread's body; returns after ``CurlLoop/stop()`` was requested and everything was torn down.
    func run() {
        while true {
            let (commands, stopping) = loop.takeCommands()
            for command in commands { apply(command) }
            if stopping { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, 5_000, &ready)
        }
        for id in Array(active.keys) { finish(id, with: .shutdownError) }
        let (late, waiters) = loop.markStopped()
        for case .add(let transfer) in late { transfer.curlCompleted(.shutdownError) }
        curl_multi_cleanup(multi)
        for waiter in waiters { waiter.resume() }
    }

    private func apply(_ command: CurlLoop.Command) {
        switch command {
        case .add(let transfer):
            do throws(HTTPError) {
                let curlTransfer = try CurlTransfer(transfer: transfer, configuration: loop.configuration)
                let code = curl_multi_add_handle(multi, curlTransfer.easy)
                guard code == CURLM_OK else {
                    curlTransfer.cleanUp()
                    transfer.curlCompleted(
                        HTTPError(code: .transportFailed, message: "curl_multi_add_handle failed (\(code.rawValue))"))
                    return
                }
                active[transfer.id] = curlTransfer
                idsByHandle[curlTransfer.easy] = transfer.id
            } catch {
                transfer.curlCompleted(error)
            }
        case .cancel(let id):
            finish(id, with: .cancelledError)
        case .unpause(let id):
            guard let curlTransfer = active[id] else { return }
            curl_easy_pause(curlTransfer.easy, RK_CURLPAUSE_CONT)
        }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard rk_curl_msg_is_done(message), let easy = message.pointee.easy_handle,
                let id = idsByHandle[easy]
            else { continue }
            let result = rk_curl_msg_result(message)
            guard let curlTransfer = active[id] else { continue }
            finish(id, with: result == CURLE_OK ? nil : curlTransfer.error(for: result))
        }
    }

    /// Removes the transfer from the multi handle, frees its easy handle, and reports the outcome.
    private func finish(_ id: Int, with error: HTTPError?) {
        guard let curlTransfer = active.removeValue(forKey: id) else { return }
        idsByHandle[curlTransfer.easy] = nil
        curl_multi_remove_handle(multi, curlTransfer.easy)
        if error == nil { curlTransfer.deliverHeadIfNeeded() }
        curlTransfer.cleanUp()
        curlTransfer.transfer.curlCompleted(error)
    }
}
