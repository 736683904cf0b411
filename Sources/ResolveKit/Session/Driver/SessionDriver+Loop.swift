import Foundation
import ResolveKitHTTP
import Synchronization

extension SessionDriver {
    /// Puts `event` in the inbox and, unless a loop is running, runs the loop on this thread until the inbox is
    /// empty; or, when other sessions' stream chunks wait for a thread and `event` is not a stream event, in a task
    /// queued behind them.
    func send(_ event: SessionEvent) {
        let queueBehind = !event.isStream && parts.http.streamChunksWaiting > 0
        let runLoop = core.withLock { core -> Bool? in
            core.inbox.append(event)
            switch core.inbox.loop {
            case .running:
                return nil
            case .queued:
                guard event.isStream else { return nil }
            case .idle:
                if queueBehind {
                    core.inbox.loop = .queued
                    return false
                }
            }
            core.inbox.loop = .running
            return true
        }
        switch runLoop {
        case true?: drain()
        case false?: runQueued()
        case nil: break
        }
    }

    /// Takes events out of the inbox in order and performs their actions until the inbox is empty.
    ///
    /// Two things keep a busy process fair. While other sessions' stream chunks wait for a thread of the pool
    /// (``HTTPClient/streamChunksWaiting``), the loop stops after an event and goes on in a task queued behind
    /// them, unless its own stream's event is next: this session's other steps (a result's `POST`, what hosts
    /// are shown) can wait that long; another session's call waiting to start cannot. And publications wait for
    /// the I/O that follows them (a function's start, a journal write, a result's `POST`): a host's observers
    /// never hold those up.
    private func drain() {
        let clock = parts.clock
        let counting = parts.telemetry.metrics != nil
        while true {
            let step = core.withLock { core -> Step in
                guard let next = core.inbox.takeNext() else {
                    if let held = core.inbox.unpublished.take() { return .publish(held) }
                    core.inbox.release()
                    core.inbox.loop = .idle
                    return .idle
                }
                let actions = core.machine.handle(next, at: Moment(elapsed: clock.elapsed, date: Date()))
                // Once the run finished its counts were given back: later events change nothing it holds.
                guard counting, !core.hasFinished else { return .perform(actions, queuedAsks: 0, journalEntries: 0) }
                let changes = core.gauges.changes(in: core.machine)
                return .perform(actions, queuedAsks: changes.queuedAsks, journalEntries: changes.journalEntries)
            }
            switch step {
            case .idle:
                return
            case .publish(let publications):
                for publication in publications { publish(publication) }
            case .perform(let actions, let queuedAsks, let journalEntries):
                if queuedAsks != 0 || journalEntries != 0 {
                    parts.telemetry.changed(queuedAsks: queuedAsks, journalEntries: journalEntries)
                }
                for action in actions { performInOrder(action) }
                if parts.http.streamChunksWaiting > 0, queueBehindStreams() { return }
            }
        }
    }

    /// Performs `action`, or holds it back if it is a publication; an action that may not overtake publications
    /// has those held so far performed first.
    private func performInOrder(_ action: SessionAction) {
        if case .publish(let publication) = action {
            core.withLock { $0.inbox.unpublished.append(publication) }
            return
        }
        if !action.mayOvertakePublications, let held = core.withLock({ $0.inbox.unpublished.take() }) {
            for publication in held { publish(publication) }
        }
        perform(action)
    }

    /// Hands the rest of the inbox to a task queued behind the waiting stream chunks; `false` when the inbox is
    /// empty (the loop ends here).
    private func queueBehindStreams() -> Bool {
        let queued = core.withLock { core -> Bool in
            // This session's own stream event goes first, not behind everyone's.
            guard core.inbox.hasEvents, !core.inbox.holdsStreamEvent else { return false }
            core.inbox.loop = .queued
            return true
        }
        guard queued else { return false }
        runQueued()
        return true
    }

    /// Runs the loop in a task queued behind the waiting stream chunks, unless a stream event took it meanwhile.
    private func runQueued() {
        spawn(immediately: false) { [self] in
            let runLoop = core.withLock { core -> Bool in
                guard case .queued = core.inbox.loop else { return false }
                core.inbox.loop = .running
                return true
            }
            if runLoop { drain() }
        }
    }

    /// What the loop does next.
    private enum Step {
        case idle
        case publish([Publication])
        case perform([SessionAction], queuedAsks: Int, journalEntries: Int)
    }
}

extension SessionAction {
    /// Whether the action may be performed before publications that came ahead of it: a function's start, a
    /// journal write and a result's `POST` depend on nothing hosts are shown. Anything else comes after them (a
    /// reply above all: whoever it wakes sees the state that led to it).
    var mayOvertakePublications: Bool {
        switch self {
        case .runBatch, .permitStart, .write, .send(.toolResult, _, _): true
        default: false
        }
    }
}

extension Array {
    /// The elements, leaving the array empty; `nil` when it was empty.
    fileprivate mutating func take() -> [Element]? {
        guard !isEmpty else { return nil }
        defer { self = [] }
        return self
    }
}
