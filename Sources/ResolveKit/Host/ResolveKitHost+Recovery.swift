import Foundation
import ResolveKitCore
import Synchronization

extension ResolveKitHost {
    /// The host's recovery of keys the last process on its state folder left with calls unsettled (it crashed or
    /// was killed with results undelivered): looked for once, when the folder is taken.
    struct Recovery: Sendable {
        enum Phase: Sendable {
            case notStarted, scanning, finished
        }
        var phase = Phase.notStarted
        var scan: Task<Void, Never>?
        /// The runs delivering a folder's results, by the folder's name (the key's digest).
        var running: [String: Task<Void, Never>] = [:]
        /// Folders whose key a user asked for while the scan ran: the key's own session delivers them.
        var claimed: Set<String> = []
    }

    /// A key folder's journal written longer ago than this is passed over: its session has likely expired on the
    /// backend (30 minutes without activity by default), and results cannot be posted under another session.
    static let recoveryWindow: TimeInterval = 30 * 60

    /// Starts looking through `<root>/sessions` for key folders whose journal holds calls without an acknowledged
    /// result, and delivers each one's results in a run that does nothing else (at most
    /// ``maxConcurrentTakeovers`` at once): a user who never comes back still gets the results the backend waits
    /// for. Such a run knows the key's folder, not the key, so it runs no function and opens no event stream.
    func startRecovery(in root: String) {
        let logger = configuration.logger.labeled("resolvekit")
        recovery.withLock { state in
            guard state.phase == .notStarted else { return }
            state.phase = .scanning
            state.scan = Task { [self] in
                let folders = await Self.foldersWithUnsettledCalls(in: root + "/sessions")
                await withTaskGroup(of: Void.self) { group in
                    var running = 0
                    for name in folders {
                        if Task.isCancelled { break }
                        if running == Self.maxConcurrentTakeovers, await group.next() != nil { running -= 1 }
                        guard let task = claimForDelivery(name, in: root, logger: logger) else { continue }
                        running += 1
                        group.addTask { await task.value }
                    }
                }
                recovery.withLock { state in
                    state.phase = .finished
                    state.claimed = []
                }
            }
        }
    }

    /// Starts the delivering run of folder `name`, unless a user's key opened it first.
    private func claimForDelivery(_ name: String, in root: String, logger: ResolveKitLogger) -> Task<Void, Never>? {
        var perKey = configuration
        perKey.stateLocation = .directory(root + "/sessions/" + name)
        perKey.deviceIDProvider = { nil }
        perKey.deliversOnly = true
        perKey.logger = configuration.logger.with(metadata: ["key": String(name.prefix(12))])
        let runtime = ResolveKitRuntime(
            configuration: perKey, httpClient: http, registry: registry, registration: registration,
            approvals: approvals)
        return recovery.withLock { state -> Task<Void, Never>? in
            guard state.phase == .scanning, !state.claimed.contains(name) else { return nil }
            // Made under the lock its end takes, so it is in `running` before it can leave it.
            let task = Task { [self] in
                await deliver(runtime, logger: logger.with(metadata: ["key": String(name.prefix(12))]))
                recovery.withLock { _ = $0.running.removeValue(forKey: name) }
            }
            state.running[name] = task
            return task
        }
    }

    private func deliver(_ runtime: ResolveKitRuntime, logger: ResolveKitLogger) async {
        let failure: ResolveKitError?
        do throws(ResolveKitError) {
            try await runtime.run()
            if case .failed(let error) = runtime.connectionState { failure = error } else { failure = nil }
        } catch {
            failure = error
        }
        if let failure {
            let line = "Could not deliver what a stopped process left for a user key: \(failure)"
            logger.warning(line)
        } else {
            logger.info("Settled the results a stopped process left for a user key")
        }
    }

    /// Before `key`'s session opens: waits for the delivering run of its folder if one is running, or keeps the
    /// scan from starting one (the key's own session delivers its results).
    func waitForRecovery(of key: String) async {
        guard recovery.withLock({ $0.phase == .scanning }) else { return }
        let name = SHA256.hexDigest(key)
        let running = recovery.withLock { state -> Task<Void, Never>? in
            if let running = state.running[name] { return running }
            if state.phase == .scanning { state.claimed.insert(name) }
            return nil
        }
        await running?.value
    }

    /// Gives the recovery `timeout` to finish, as open sessions get it to post their results; then stops it. What
    /// it did not deliver stays in the folders for the next process.
    func drainRecovery(timeout: Duration) async {
        guard let scan = recovery.withLock({ $0.scan }) else { return }
        let clock = configuration.clock
        let deadline = Task { [self] in
            do { try await clock.sleep(untilElapsed: clock.elapsed + timeout) } catch { return }
            recovery.withLock { state in
                state.phase = .finished
                scan.cancel()
                for task in state.running.values { task.cancel() }
            }
        }
        await scan.value
        deadline.cancel()
    }

    /// ``foldersWithUnsettledCalls(in:now:)`` on a thread of its own: it reads a journal file per recent key, and
    /// the cooperative pool has one thread per core.
    static func foldersWithUnsettledCalls(in sessions: String) async -> [String] {
        await withCheckedContinuation { continuation in
            let scan = { @Sendable in
                continuation.resume(returning: foldersWithUnsettledCalls(in: sessions, now: Date()))
            }
            do { try SystemThread.detached(name: "rk-recovery", scan) } catch { scan() }
        }
    }

    /// The key folders (named by a 64-digit digest) in `sessions` whose journal, written within
    /// ``recoveryWindow`` of `now`, holds a call without an acknowledged result.
    static func foldersWithUnsettledCalls(in sessions: String, now: Date) -> [String] {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: sessions)) ?? []
        return names.sorted().filter { name in
            guard name.utf8.count == 64, name.utf8.allSatisfy(\.isHexDigit) else { return false }
            let folder = sessions + "/" + name
            guard let attributes = try? files.attributesOfItem(atPath: folder + "/journal.jsonl"),
                let modified = attributes[.modificationDate] as? Date,
                now.timeIntervalSince(modified) < recoveryWindow
            else { return false }
            return FileCallJournalStore(directory: folder).load().journal.hasUnsettledCalls
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
