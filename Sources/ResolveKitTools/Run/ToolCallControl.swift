import Synchronization

/// The calls handed to a ``ToolCallRunner`` as their owner sees them: which may still start, the one limit on
/// calls running at once, and how to stop one. Shared by the runner, which asks before it starts a call, and the
/// front end that owns the calls, which withdraws or cancels them from any task.
///
/// A withdrawn call that has not started never starts and ends with the error given; a started call goes on.
/// A cancelled call never starts, and a running one is cancelled (its outcome says so).
package final class ToolCallControl: Sendable {
    private enum Phase {
        /// Handed to the runner: being admitted or decided.
        case handed
        /// Waiting for a slot.
        case waiting
        /// Stopped before it started; it ends with this error.
        case stopped(ResolveKitFunctionError)
        /// Holds a slot and is being started; a cancellation meanwhile is applied once it runs.
        case starting(cancelled: Bool)
        case running(RunningCall)
    }

    private struct State {
        var slots: CallSlots
        var phases: [ToolCallID: Phase] = [:]
        var slotWaiters: [ToolCallID: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state: Mutex<State>
    /// Why no call may start now, if one may not (the process is about to lose its claim on the calls).
    private let gate: @Sendable () -> ResolveKitFunctionError?

    /// A control letting at most `maxConcurrentCalls` calls run at once, and none while `gate` says why not.
    package init(maxConcurrentCalls: Int, gate: @escaping @Sendable () -> ResolveKitFunctionError? = { nil }) {
        state = Mutex(State(slots: CallSlots(limit: maxConcurrentCalls)))
        self.gate = gate
    }

    /// How many calls hold a slot now.
    package var runningCount: Int { state.withLock { $0.slots.running } }

    /// The runner took these calls; from now on they can be withdrawn or cancelled.
    func hand(_ callIDs: [ToolCallID]) {
        state.withLock { state in
            for callID in callIDs where state.phases[callID] == nil { state.phases[callID] = .handed }
        }
    }

    /// Why the call may no longer start, once it was withdrawn or cancelled.
    func stopError(_ callID: ToolCallID) -> ResolveKitFunctionError? {
        state.withLock { state in
            if case .stopped(let error) = state.phases[callID] { return error }
            return nil
        }
    }

    /// Stops calls that have not started: they never start and end with `error`. Running calls go on.
    package func withdraw(_ callIDs: [ToolCallID], because error: ResolveKitFunctionError) {
        stop(callIDs, because: error, cancellingRunning: false)
    }

    /// Stops calls that have not started (they end with `error`) and cancels the running ones.
    package func cancel(_ callIDs: [ToolCallID], because error: ResolveKitFunctionError) {
        stop(callIDs, because: error, cancellingRunning: true)
    }

    /// Waits for a slot for `callID` and claims it for starting; returns why it may not start instead, when it was
    /// withdrawn or cancelled first. Returns without suspending when a slot is free.
    func claim(_ callID: ToolCallID) async -> ResolveKitFunctionError? {
        if let refusal = gate() { return refusal }
        enum Answer { case granted, wait, refused(ResolveKitFunctionError) }
        let answer = state.withLock { state -> Answer in
            if case .stopped(let error) = state.phases[callID] { return .refused(error) }
            guard state.slots.request(callID) else { return .wait }
            state.phases[callID] = .starting(cancelled: false)
            return .granted
        }
        switch answer {
        case .granted: return nil
        case .refused(let error): return error
        case .wait: break
        }
        let granted = await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool? in
                switch state.phases[callID] {
                case .stopped:
                    _ = state.slots.withdraw(callID)
                    return false
                case .starting:
                    // Granted while this task was getting ready to wait.
                    return true
                default:
                    state.phases[callID] = .waiting
                    state.slotWaiters[callID] = continuation
                    return nil
                }
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
        }
        if granted {
            guard let refusal = gate() else { return nil }
            finished(callID)
            return refusal
        }
        return state.withLock { state in
            if case .stopped(let error) = state.phases[callID] { return error }
            return .cancelled("Cancelled before it started")
        }
    }

    /// The claimed call's function started as `running`; a cancellation that came while it was being started
    /// cancels it now.
    func started(_ callID: ToolCallID, _ running: RunningCall) {
        let cancelNow = state.withLock { state -> Bool in
            guard case .starting(let cancelled) = state.phases[callID] else { return false }
            state.phases[callID] = .running(running)
            return cancelled
        }
        if cancelNow { running.cancel() }
    }

    /// The call ended (or never started): it is forgotten, and its slot, if it held one, goes to the next waiter.
    func finished(_ callID: ToolCallID) {
        let woken = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let phase = state.phases.removeValue(forKey: callID) else { return nil }
            switch phase {
            case .handed, .waiting, .stopped: return nil
            case .starting, .running: break
            }
            guard let next = state.slots.release() else { return nil }
            state.phases[next] = .starting(cancelled: false)
            return state.slotWaiters.removeValue(forKey: next)
        }
        woken?.resume(returning: true)
    }

    private func stop(_ callIDs: [ToolCallID], because error: ResolveKitFunctionError, cancellingRunning: Bool) {
        var toCancel: [RunningCall] = []
        var toWake: [CheckedContinuation<Bool, Never>] = []
        state.withLock { state in
            for callID in callIDs {
                switch state.phases[callID] {
                case nil:
                    // Not handed to the runner, or already finished: nothing to stop.
                    break
                case .handed, .waiting:
                    state.phases[callID] = .stopped(error)
                    if state.slots.withdraw(callID), let waiter = state.slotWaiters.removeValue(forKey: callID) {
                        toWake.append(waiter)
                    }
                case .stopped:
                    break
                case .starting:
                    if cancellingRunning { state.phases[callID] = .starting(cancelled: true) }
                case .running(let running):
                    if cancellingRunning { toCancel.append(running) }
                }
            }
        }
        for waiter in toWake { waiter.resume(returning: false) }
        for running in toCancel { running.cancel() }
    }
}
