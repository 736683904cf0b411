import Synchronization

/// Wakes one waiting task from any thread: a signal sent while nobody waits is kept for the next wait. The export
/// loop parks on it; a span-ending caller, a flush or shutdown signals it without waiting for anything.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next one.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once when a signal is pending), or when the calling task is cancelled.
    func wait() async {
        state.withLock { $0.cancelled = false }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || state.cancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Waits until signalled or until `duration` passes on `clock`; returns whether the duration passed first.
    func wait(for duration: Duration?, clock: any Clock<Duration>) async -> Bool {
        guard let duration else {
            await wait()
            return false
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return false
            }
            group.addTask {
                do {
                    try await clock.sleep(for: duration)
                    return true
                } catch {
                    return false
                }
            }
            let timedOut = await group.next() ?? false
            group.cancelAll()
            return timedOut
        }
    }
}

/// An event that happens once, which any number of tasks can wait for with a deadline.
final class OneTimeSignal: Sendable {
    private struct State {
        var fired = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    init() {}

    /// Whether the event happened.
    var hasFired: Bool { state.withLock { $0.fired } }

    /// Makes it happen, resuming every waiter; later calls do nothing.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns when the event happened, or when the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.fired || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    if !state.fired { state.cancelled.insert(id) }
                    return nil
                }
                return waiter
            }
            waiter?.resume()
        }
    }

    /// Waits until the event happens or `duration` passes on `clock`; returns whether it happened.
    func wait(for duration: Duration, clock: any Clock<Duration>) async -> Bool {
        if hasFired { return true }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await clock.sleep(for: duration) }
            await group.next()
            group.cancelAll()
        }
        return hasFired
    }
}

/// A flag one task sets and a blocking loop on another thread checks: a request's cancellation.
final class CancelFlag: Sendable {
    private let value = Atomic(false)

    init() {}

    /// Whether it was set.
    var isSet: Bool { value.load(ordering: .relaxed) }

    /// Sets it.
    func set() { value.store(true, ordering: .relaxed) }
}
