import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// Runs an ``EventStream`` over a ``ScriptedTransport`` and a ``ManualClock``, and lets a test read its
/// elements one by one.
struct EventStreamHarness {
    static let url = "https://rk.example/v1/sessions/s1/events"

    let clock: ManualClock
    let transport: ScriptedTransport
    let headerCalls: HeaderCounter
    private let task: Task<EventStream.Termination, Never>
    private var iterator: AsyncStream<EventStream.Element>.Iterator

    init(_ replies: [ScriptedTransport.Reply], configuration: EventStream.Configuration = Self.configuration()) {
        let transport = ScriptedTransport(replies)
        let clock = ManualClock()
        let (elements, continuation) = AsyncStream.makeStream(of: EventStream.Element.self)
        let counter = HeaderCounter()
        let stream = EventStream(
            url: Self.url, configuration: configuration, transport: transport.transport, clock: clock,
            headers: { [("X-Resolvekit-Chat-Capability", "token-\(counter.next())")] })
        self.clock = clock
        self.transport = transport
        self.headerCalls = counter
        self.iterator = elements.makeAsyncIterator()
        self.task = Task {
            let termination = await stream.run { continuation.yield($0) }
            continuation.finish()
            return termination
        }
    }

    /// Jitter fixed at zero, no watchdog unless asked, small limits.
    static func configuration(idleTimeout: Duration? = nil) -> EventStream.Configuration {
        EventStream.Configuration(
            backoff: EventStream.Backoff(random: { 0.5 }), idleTimeout: idleTimeout,
            limits: SSEParser.Limits(maxLineLength: 256, maxEventDataSize: 256))
    }

    /// The next `count` elements.
    mutating func next(_ count: Int) async -> [EventStream.Element] {
        var result: [EventStream.Element] = []
        for _ in 0..<count {
            guard let element = await iterator.next() else { break }
            result.append(element)
        }
        return result
    }

    /// Waits for the single pending timer, checks its deadline, and fires it.
    func fireTimer(at seconds: Int) async {
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(seconds))])
        clock.advance(to: ManualClock.Instant(offset: .seconds(seconds)))
    }

    /// Cancels the stream and returns the elements it still produced and why it ended.
    mutating func cancel() async -> ([EventStream.Element], EventStream.Termination) {
        task.cancel()
        var rest: [EventStream.Element] = []
        while let element = await iterator.next() { rest.append(element) }
        return (rest, await task.value)
    }

    /// Waits until the stream ends on its own.
    mutating func finish() async -> ([EventStream.Element], EventStream.Termination) {
        var rest: [EventStream.Element] = []
        while let element = await iterator.next() { rest.append(element) }
        return (rest, await task.value)
    }
}

/// Counts calls of the headers closure.
final class HeaderCounter: Sendable {
    private let count = Atomic<Int>(0)
    var calls: Int { count.load(ordering: .relaxed) }
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// Shorthands for expected elements and the frames that produce them.
enum Frames {
    static func frame(_ id: String, _ data: String) -> String { "id: \(id)\nevent: t\ndata: \(data)\n\n" }
    static func event(_ id: String, _ data: String) -> EventStream.Element {
        .event(SSEEvent(id: id, type: "t", data: data))
    }
    static let connecting = EventStream.Element.state(.connecting)
    static let open = EventStream.Element.state(.open)
    static let closed = EventStream.Element.state(.closed)
    static func reconnecting(_ attempt: Int, _ seconds: Int) -> EventStream.Element {
        .state(.reconnecting(attempt: attempt, delay: .seconds(seconds)))
    }
}
