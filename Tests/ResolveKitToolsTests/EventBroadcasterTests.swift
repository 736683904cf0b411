@testable import ResolveKitTools
import Testing

struct EventBroadcasterTests {
    @Test func eachSubscriberGetsEveryEventSentWhileItListens() async {
        let broadcaster = EventBroadcaster<Int>()
        broadcaster.send(0)
        #expect(!broadcaster.hasSubscribers)
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe()
        #expect(broadcaster.hasSubscribers)
        broadcaster.send(1)
        broadcaster.send(2)
        broadcaster.finishAll()
        #expect(!broadcaster.hasSubscribers)
        broadcaster.send(3)
        #expect(await Array(first) == [1, 2])
        #expect(await Array(second) == [1, 2])
    }

    @Test func aSubscriberThatStopsListeningIsNoLongerCounted() async {
        let broadcaster = EventBroadcaster<Int>()
        var dropped: AsyncStream<Int>? = broadcaster.subscribe()
        #expect(dropped != nil && broadcaster.hasSubscribers)
        dropped = nil
        #expect(!broadcaster.hasSubscribers)
        let kept = broadcaster.subscribe()
        broadcaster.send(1)
        broadcaster.finishAll()
        #expect(await Array(kept) == [1])
    }

    @Test func aCancelledReaderEndsItsSubscription() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        let reader = Task { for await _ in stream {} }
        #expect(broadcaster.hasSubscribers)
        reader.cancel()
        await reader.value
        #expect(!broadcaster.hasSubscribers)
    }
}

extension Array {
    init(_ stream: AsyncStream<Element>) async {
        self = []
        for await element in stream { append(element) }
    }
}
