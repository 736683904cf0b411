import Foundation
import Synchronization

/// Hands every event to every current subscriber. Each subscriber has its own bounded buffer (the newest
/// 4096 events), so a slow subscriber loses its oldest events instead of growing memory or slowing the runtime.
package final class EventBroadcaster<Event: Sendable>: Sendable {
    package init() {}

    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])
    /// How many there are, changed under the lock and read without it: most sends have no subscriber, and the
    /// locked table's generic type costs a metadata lookup on every call.
    private let count = Atomic<Int>(0)

    package func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let id = UUID()
        subscribers.withLock { subscribers in
            subscribers[id] = continuation
            count.add(1, ordering: .relaxed)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            subscribers.withLock { subscribers in
                if subscribers.removeValue(forKey: id) != nil { count.subtract(1, ordering: .relaxed) }
            }
        }
        return stream
    }

    /// Ends every subscription: each subscriber gets what it has not read yet, then its stream ends.
    package func finishAll() {
        for continuation in subscribers.withLock({ subscribers in
            defer {
                subscribers = [:]
                count.store(0, ordering: .relaxed)
            }
            return Array(subscribers.values)
        }) {
            continuation.finish()
        }
    }

    /// Whether anyone listens: a producer whose events cost something to make asks first.
    package var hasSubscribers: Bool { count.load(ordering: .relaxed) > 0 }

    package func send(_ event: Event) {
        guard hasSubscribers else { return }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }
}
