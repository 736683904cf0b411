import Glibc
import ResolveKitCore
import Synchronization

/// A TCP relay on a loopback port in front of another port: each connection it accepts is forwarded to the target
/// byte for byte, until ``stallOpenConnections()`` makes the ones open at that moment go silent, as a proxy or a NAT
/// does when it stops forwarding a flow without closing it. Their bytes are read and dropped, so neither side learns
/// anything. Connections accepted later are forwarded. Call ``stop()`` when done.
package final class LoopbackTCPRelay: Sendable {
    /// One relayed connection: the accepted socket and the one to the target.
    private final class Link: Sendable {
        let accepted: Int32
        let target: Int32
        let isStalled = Atomic<Bool>(false)

        init(accepted: Int32, target: Int32) {
            self.accepted = accepted
            self.target = target
        }

        /// Ends both directions on both sockets: each pump returns; the sockets stay open until closed.
        func shutDown() {
            shutdown(accepted, Int32(SHUT_RDWR))
            shutdown(target, Int32(SHUT_RDWR))
        }
    }

    /// The relay's port on 127.0.0.1.
    package let port: Int
    private let targetPort: Int
    private let listener: Int32
    private let links = Mutex<[Link]>([])

    /// Listens on a free loopback port and forwards to `127.0.0.1:targetPort`.
    /// - Throws: ``LoopbackServerError`` when the system refuses a socket, a port or a thread.
    package init(targetPort: Int) throws(LoopbackServerError) {
        let (listener, port) = try bindFreeLoopbackPort()
        guard listen(listener, 64) == 0 else {
            let code = errno
            Glibc.close(listener)
            throw LoopbackServerError(code: .bindFailed, message: "Could not listen on a loopback port", errno: code)
        }
        self.listener = listener
        self.targetPort = targetPort
        self.port = Int(port)
        do {
            try SystemThread.detached(name: "rk-relay") { [self] in acceptLoop() }
        } catch {
            Glibc.close(listener)
            throw LoopbackServerError(code: .resourceFailed, message: "Could not start a thread", errno: error.errno)
        }
    }

    /// From now on, the connections open now forward nothing either way; they stay open.
    package func stallOpenConnections() {
        for link in links.withLock({ $0 }) { link.isStalled.store(true, ordering: .relaxed) }
    }

    /// Stops accepting and closes every relayed connection.
    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        links.withLock { links in
            for link in links { link.shutDown() }
        }
    }

    private func acceptLoop() {
        while true {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else {
                if errno == EINTR { continue }
                Glibc.close(listener)
                return
            }
            guard let target = connectToLoopback(port: targetPort) else {
                Glibc.close(accepted)
                continue
            }
            let link = Link(accepted: accepted, target: target)
            links.withLock { $0.append(link) }
            let pumps = [(accepted, target), (target, accepted)].map { from, to in
                try? SystemThread(name: "rk-relay-pump") { Self.pump(from: from, to: to, link: link) }
            }
            if pumps.contains(where: { $0 == nil }) {
                // A direction that cannot be forwarded ends the connection rather than leaving it half relayed.
                link.shutDown()
            }
            do {
                try SystemThread.detached(name: "rk-relay-link") { [self] in close(link, after: pumps) }
            } catch {
                link.shutDown()
                close(link, after: pumps)
            }
        }
    }

    /// Closes each side's socket once both directions have ended.
    private func close(_ link: Link, after pumps: [SystemThread?]) {
        for pump in pumps { pump?.join() }
        // Closed under the lock that `stop()` shuts links down under: a number closed here may be reused.
        links.withLock { links in
            links.removeAll { $0 === link }
            Glibc.close(link.accepted)
            Glibc.close(link.target)
        }
    }

    /// Copies `from` to `to` until either ends; drops what it reads once the link stalled.
    private static func pump(from: Int32, to: Int32, link: Link) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if link.isStalled.load(ordering: .relaxed) { continue }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == count else { break }
        }
        // The other direction learns that this one ended.
        shutdown(to, Int32(SHUT_WR))
        shutdown(from, Int32(SHUT_RD))
    }
}
