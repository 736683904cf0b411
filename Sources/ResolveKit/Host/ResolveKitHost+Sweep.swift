import ResolveKitCore
import ResolveKitRedis
import ResolveKitTelemetry
import Synchronization

extension ResolveKitHost {
    /// The most keys one host takes over at a time; the sweep finds the others again on its next passes.
    static let maxConcurrentTakeovers = 16

    /// With a Redis state location and a sweep interval, starts the sweep: every interval, one bounded pass of
    /// ``RedisLeaseStore/sweep(from:scanCalls:count:)`` lists keys whose lease ran out with calls unsettled (their
    /// replica died, or closed before it could deliver), and each is taken over here.
    func startOrphanSweepIfNeeded() {
        guard case .redis(let url, let prefix) = configuration.stateLocation,
            let interval = configuration.replica.sweepInterval,
            let leases = try? RedisConnections.leases(at: url, prefix: prefix, settings: configuration.replica)
        else { return }
        let logger = configuration.logger.labeled("resolvekit")
        orphanSweep.withLock { sweep in
            guard sweep.task == nil else { return }
            // Cancelled by drain() and deinit; it holds the host weakly between passes.
            sweep.task = Task { [weak self] in
                let clock = ContinuousClock()
                var cursor = "0"
                var failing = false
                while !Task.isCancelled {
                    do { try await clock.sleep(for: interval) } catch { return }
                    let pass: RedisLeaseStore.Sweep
                    do {
                        pass = try await leases.sweep(from: cursor)
                        failing = false
                    } catch {
                        // Once per outage, not once per pass.
                        if !failing { logger.warning("The sweep for keys of stopped replicas failed: \(error)") }
                        failing = true
                        continue
                    }
                    cursor = pass.cursor
                    guard let self else { return }
                    for key in pass.orphans { self.takeOver(key, logger: logger) }
                }
            }
        }
    }

    func stopOrphanSweep() {
        orphanSweep.withLock { sweep in
            sweep.task?.cancel()
            sweep.task = nil
        }
    }

    /// Opens `key`'s session here: it takes the key's lease, and its journal's unsettled calls are answered (a
    /// call that had started is reported interrupted) and delivered; then the session is open as any other until
    /// it is idle. Losing the race to another replica is fine: that one delivers.
    private func takeOver(_ key: String, logger: ResolveKitLogger) {
        let taken = orphanSweep.withLock { sweep -> Bool in
            guard sweep.task != nil, sweep.takingOver.count < Self.maxConcurrentTakeovers else { return false }
            return sweep.takingOver.insert(key).inserted
        }
        guard taken else { return }
        let digest = Self.logName(for: key)
        Task { [self] in
            do throws(ResolveKitError) {
                _ = try await session(for: key)
                metrics?.replicaKeyEvent(.takenOver)
                logger.info(
                    "Took over a user key a stopped replica left with calls unsettled", metadata: ["key": digest])
            } catch {
                logger.debug("Did not take over a user key", metadata: ["key": digest, "reason": error.message])
            }
            orphanSweep.withLock { _ = $0.takingOver.remove(key) }
        }
    }
}
