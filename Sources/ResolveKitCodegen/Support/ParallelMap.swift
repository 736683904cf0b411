import Dispatch
import Foundation

/// Maps an array on every core: the files are independent until types are resolved, and each function renders
/// alone. The result is in the input's order, so the output never depends on scheduling.
enum ParallelMap {
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ transform: @Sendable (Item) -> Result
    ) -> [Result] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard items.count > 1, cores > 1 else { return items.map(transform) }
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        // Each index is written by exactly one chunk, and read only after concurrentPerform returns.
        nonisolated(unsafe) let output = results
        let chunks = min(items.count, cores * 4)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            for index in (chunk * items.count / chunks)..<((chunk + 1) * items.count / chunks) {
                output[index] = transform(items[index])
            }
        }
        return results.map { $0! }
    }

    /// `items` cut into consecutive shares, `perCore` per core, so that work with per-share state (a memo) still
    /// spreads over every core.
    static func shares<Item>(of items: [Item], perCore: Int = 2) -> [ArraySlice<Item>] {
        let count = min(items.count, ProcessInfo.processInfo.activeProcessorCount * perCore)
        guard count > 1 else { return [items[...]] }
        return (0..<count).map { share in items[(share * items.count / count)..<((share + 1) * items.count / count)] }
    }

    /// Frees `runs` on every core, each run on one. Call it when nothing else refers to their items: the model of
    /// a thousand files is some hundred thousand allocations, and freeing them one after the other on one core
    /// takes as long as a stage.
    static func release<Item>(_ runs: consuming [[Item]]) {
        let boxes = runs.map(Run.init)
        _ = consume runs
        DispatchQueue.concurrentPerform(iterations: boxes.count) { boxes[$0].items = [] }
    }

    /// One run of items to free, passed to the core that frees it.
    ///
    /// `@unchecked Sendable`: each box is emptied by exactly one iteration of `concurrentPerform`, and nothing else
    /// touches it.
    private final class Run<Item>: @unchecked Sendable {
        var items: [Item]

        init(_ items: [Item]) {
            self.items = items
        }
    }
}
