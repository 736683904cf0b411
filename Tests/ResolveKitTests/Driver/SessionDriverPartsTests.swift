import Foundation
import ResolveKitHTTP
import Testing

@testable import ResolveKit

@Suite("The session driver's bookkeeping")
struct SessionDriverPartsTests {
    @Test("a task that ended before it was kept is not kept, so ending the session waits for nothing stale")
    func taskEndedBeforeKept() async {
        var tasks = SessionTasks()
        let early = tasks.nextID()
        let late = tasks.nextID()
        #expect(early != late)
        let finished = Task<Void, Never> {}
        let running = Task<Void, Never> { try? await Task.sleep(for: .seconds(60)) }
        tasks.ended(early)
        tasks.keep(finished, id: early)
        tasks.keep(running, id: late)
        let kept = tasks.removeAll()
        #expect(kept.count == 1)
        for task in kept { task.cancel() }
        await running.value
        #expect(tasks.removeAll().isEmpty)
    }

    @Test("a kept task that ends is forgotten; timers are handed over with the rest and the stream is dropped")
    func keptTaskEnds() {
        var tasks = SessionTasks()
        let id = tasks.nextID()
        let task = Task<Void, Never> {}
        tasks.keep(task, id: id)
        tasks.ended(id)
        tasks.timers[TimerID.turnWatchdog] = Task<Void, Never> {}
        tasks.stream = task
        #expect(tasks.removeAll().count == 1)
        #expect(tasks.stream == nil)
        #expect(tasks.timers.isEmpty)
    }

    @Test("the inbox gives events in order, says when a stream event waits, and empties")
    func inboxOrder() {
        var inbox = SessionInbox()
        #expect(!inbox.hasEvents)
        inbox.append(.stop)
        inbox.append(.stream(generation: 1, .comment("keep-alive")))
        #expect(inbox.holdsStreamEvent)
        guard case .stop? = inbox.takeNext() else {
            Issue.record("the first event sent is not the first taken")
            return
        }
        #expect(inbox.holdsStreamEvent)
        guard case .stream? = inbox.takeNext() else {
            Issue.record("the second event sent is not the second taken")
            return
        }
        #expect(inbox.takeNext() == nil)
        inbox.release()
        inbox.append(.stop)
        #expect(inbox.hasEvents && !inbox.holdsStreamEvent)
    }

    @Test("waiters get distinct numbers")
    func waiterNumbers() {
        var waiters = SessionDriver.Waiters()
        #expect(waiters.nextID() != waiters.nextID())
    }
}
