import Glibc
import ResolveKitCore
import Synchronization

/// `machine`: what the machine itself does, to read the other rows against. The latency rows (`tool-latency`,
/// `sessions`) follow the machine as much as the code: a turn runs through the code and data of two processes, the
/// Swift runtime, libcurl and the kernel's TCP path on several threads, so how fast the machine brings back what its
/// caches lost and hands a cache line to the other core set its CPU per turn as much as the instructions do, while a
/// loop over one buffer such as `sse-parse` barely notices.
///
/// - `load-latency`: one load after another, each depending on the last, through a working set of `chunk` bytes in
///   an order no prefetcher can guess (ns per load, best of three). Where the set outgrows a cache, the figure jumps.
/// - `core-round-trip`: two threads hand one cache line back and forth through an atomic (ns per round trip, median
///   of five, with their `min` and `max`): what every wake-up, lock and shared reference count pays between two
///   cores. On a virtual machine it moves as the host moves the virtual cores over its own.
/// - `parallel-compute`: how much slower each of two threads runs a register-only loop when both run at once than
///   one alone (%, median of three): near 0 when the two cores are cores, higher when they share one.
struct MachineWorkload: Workload {
    let name = "machine"
    let summary = "the machine under the other rows: load latency, core-to-core round trip (ns), two threads vs one (%)"
    var workingSets = [32 << 10, 256 << 10, 2 << 20, 16 << 20, 128 << 20]
    var loads = 4_000_000
    var roundTrips = 200_000
    var computeIterations = 300_000_000

    func run(log: @Sendable (String) -> Void) async throws(BenchFailure) -> [Measurement] {
        var rows: [Measurement] = []
        for bytes in workingSets {
            let nanoseconds = (0..<3).map { _ in Self.loadLatency(bytes: bytes, loads: loads) }.min() ?? 0
            log("machine: \(bytes >> 10) KiB working set: \(Report.rounded(nanoseconds)) ns per load")
            rows.append(
                Measurement(
                    workload: name, contender: "load-latency", chunk: bytes, value: nanoseconds, unit: "ns"))
        }
        guard sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 else {
            log("machine: one core online: no core-to-core or parallel rows")
            return rows
        }
        let trips = try (0..<5).map { _ throws(BenchFailure) in try Self.coreRoundTrip(count: roundTrips) }
        let trip = trips.median ?? 0
        log("machine: core-to-core round trip \(Report.rounded(trip)) ns")
        rows.append(
            Measurement(
                workload: name, contender: "core-round-trip", chunk: nil, value: trip, unit: "ns",
                details: ["min": trips.min() ?? 0, "max": trips.max() ?? 0]))
        let slowdowns = try (0..<3).map { _ throws(BenchFailure) in
            try Self.parallelSlowdown(iterations: computeIterations)
        }
        let slowdown = slowdowns.median ?? 0
        log("machine: two threads computing at once: each \(Report.rounded(slowdown)) % slower than one alone")
        rows.append(
            Measurement(workload: name, contender: "parallel-compute", chunk: nil, value: slowdown, unit: "%"))
        return rows
    }

    /// Nanoseconds of thread CPU time per load, chasing `loads` dependent loads through `bytes` of memory, one
    /// load per 64-byte line. The lines are visited once, in a random cycle, before timing starts, so the pages
    /// are there and the caches hold what they can.
    static func loadLatency(bytes: Int, loads: Int) -> Double {
        let stride = 64 / MemoryLayout<Int>.stride
        let lines = max(bytes / 64, 2)
        let memory = UnsafeMutablePointer<Int>.allocate(capacity: lines * stride)
        defer { memory.deallocate() }
        for (line, next) in randomCycle(count: lines).enumerated() { memory[line * stride] = next * stride }
        var index = 0
        for _ in 0..<lines { index = memory[index] }
        let (end, seconds) = CPUTime.measure {
            var index = index
            for _ in 0..<loads { index = memory[index] }
            return index
        }
        precondition(end >= 0 && end < lines * stride, "the chase left its memory")
        return seconds * 1e9 / Double(loads)
    }

    /// A successor for each of `count` slots: the slots in a random order, each leading to the next and the last
    /// back to the first, so following successors from any slot visits every slot once before it returns.
    static func randomCycle(count: Int) -> [Int] {
        let order = Array(0..<count).shuffled()
        var successor = [Int](repeating: 0, count: count)
        for position in 0..<count { successor[order[position]] = order[(position + 1) % count] }
        return successor
    }

    /// Nanoseconds of wall time per round trip of one cache line between this thread and another.
    static func coreRoundTrip(count: Int) throws(BenchFailure) -> Double {
        let line = SharedLine()
        let partner = try start("rk-bench-pong") {
            for trip in 0..<count {
                line.wait(for: 2 * trip + 1)
                line.turn.store(2 * trip + 2, ordering: .releasing)
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        for trip in 0..<count {
            line.turn.store(2 * trip + 1, ordering: .releasing)
            line.wait(for: 2 * trip + 2)
        }
        let elapsed = (clock.now - started).inSeconds
        partner.join()
        return elapsed * 1e9 / Double(count)
    }

    /// How much longer, in %, each of two threads takes to run the same loop when both run at once than one
    /// thread alone (wall time: a core that another thread slows still counts its time as the thread's).
    static func parallelSlowdown(iterations: Int) throws(BenchFailure) -> Double {
        let alone = compute(iterations)
        let other = Mutex<(seconds: Double, result: Int)>((0, 0))
        let partner = try start("rk-bench-spin") {
            let outcome = compute(iterations)
            other.withLock { $0 = outcome }
        }
        let mine = compute(iterations)
        partner.join()
        let theirs = other.withLock { $0 }
        // The same loop gives the same result; comparing them also keeps the optimiser from dropping the loop.
        guard mine.result == alone.result, theirs.result == alone.result else {
            throw BenchFailure(message: "machine: two runs of the same loop disagreed")
        }
        return ((mine.seconds + theirs.seconds) / 2 / alone.seconds - 1) * 100
    }

    /// Runs a loop that stays in registers: its wall seconds and its result.
    private static func compute(_ iterations: Int) -> (seconds: Double, result: Int) {
        let clock = ContinuousClock()
        let started = clock.now
        var value = 0
        for step in 0..<iterations { value = value &+ (step ^ (value >> 3)) }
        return ((clock.now - started).inSeconds, value)
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) throws(BenchFailure)
        -> SystemThread
    {
        do throws(SystemThread.StartFailure) {
            return try SystemThread(name: name, body)
        } catch {
            throw BenchFailure(message: "machine: could not start a thread (errno \(error.errno))")
        }
    }
}

/// One cache line two threads pass between them.
private final class SharedLine: Sendable {
    let turn = Atomic<Int>(0)

    /// Spins until `turn` is `value`, yielding the core now and then so a partner that lost its core gets it back.
    func wait(for value: Int) {
        var spins = 0
        while turn.load(ordering: .acquiring) != value {
            spins += 1
            if spins % 4096 == 0 { sched_yield() }
        }
    }
}
