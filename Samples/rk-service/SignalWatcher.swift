import Dispatch
import Foundation
import Glibc
import Synchronization

/// Delivers SIGTERM and SIGINT (or other signals) to async waiters, through DispatchSource signal sources with
/// the default action ignored, so a signal never kills the process before it has drained.
///
/// Unlike an `AsyncStream`, a waiter that is cancelled leaves the watcher usable: signals that arrive while nobody
/// waits are kept for the next ``next()``.
final class SignalWatcher: Sendable {
    private let inbox = SignalInbox()
    private let sources: SignalSources

    /// Installs the sources at once.
    init(_ numbers: [Int32]) {
        let inbox = inbox
        sources = SignalSources(
            numbers.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { inbox.deliver(number) }
                source.resume()
                return source
            })
    }

    deinit {
        sources.cancel()
    }

    /// The next signal (the oldest not yet taken), or `nil` when the waiting task is cancelled.
    func next() async -> Int32? {
        await inbox.next()
    }

    /// A signal's name for logs.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(number)"
        }
    }
}

/// Signals received and tasks waiting for one.
private final class SignalInbox: Sendable {
    private struct State {
        var received: [Int32] = []
        var waiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]
    }

    private let state = Mutex(State())

    func next() async -> Int32? {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
                let immediate = state.withLock { state -> Int32?? in
                    if !state.received.isEmpty { return .some(state.received.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    func deliver(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Int32?, Never>? in
            guard let id = state.waiters.keys.first else {
                state.received.append(number)
                return nil
            }
            return state.waiters.removeValue(forKey: id)
        }
        waiter?.resume(returning: number)
    }
}

/// The dispatch sources, kept alive for the watcher's life.
///
/// `@unchecked Sendable`: the array is never mutated after `init`, and dispatch sources are thread-safe objects
/// whose `cancel()` may be called from any thread.
private final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
