import Testing

@testable import rk_bench

@Suite("rk-bench machine: the chase that measures load latency")
struct MachineWorkloadTests {
    @Test(
        "the chase's order is one cycle through every line, so no load is served by a shorter loop",
        arguments: [2, 3, 64, 4096])
    func oneCycle(count: Int) {
        let successor = MachineWorkload.randomCycle(count: count)
        var seen = Set<Int>()
        var slot = 0
        repeat {
            #expect(seen.insert(slot).inserted, "slot \(slot) came round before every slot was visited")
            slot = successor[slot]
        } while slot != 0 && seen.count <= count
        #expect(seen.count == count)
    }
}
