import Glibc
public import ResolveKitCore

/// Returns the processes using the most CPU (measured over half a second) or the most resident memory.
/// - Parameters:
///   - limit: How many processes to return, 1 to 50.
///     - Minimum: 1
///     - Maximum: 50
///   - sortBy: What to rank by: "cpu" (use over the sampling window) or "memory" (resident set size).
// @ResolveKit(name: "list_top_processes", timeout: 15, requiresApproval: false)
public struct ListTopProcesses: ResolveKitFunction {
    let scanner: ProcessScanner
    let sampleInterval: Duration

    /// Creates the function for the live host, sampling CPU use over 500 ms.
    public init() {
        self.init(proc: .live, sampleInterval: .milliseconds(500))
    }

    /// Creates the function over another `/proc` and sampling window.
    init(proc: ProcFileSystem, sampleInterval: Duration) {
        self.scanner = ProcessScanner(proc: proc)
        self.sampleInterval = sampleInterval
    }

    /// Scans `/proc`, waits one sampling window, scans again and ranks the second scan.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` when `limit` is outside 1...50;
    ///   ``ResolveKitFunctionError/executionFailed(_:)`` when `/proc` cannot be listed; `CancellationError` when
    ///   the call is cancelled during the sampling window.
    public func perform(limit: Int = 5, sortBy: ProcessSortKey = .cpu) async throws -> TopProcesses {
        guard (1...50).contains(limit) else {
            throw ResolveKitFunctionError.invalidArguments("limit must be between 1 and 50; \(limit) was given.")
        }
        // Each process is read at about the same offset into both scans, so the window runs scan start to scan start.
        let clock = ContinuousClock()
        let started = clock.now
        let before = try scan()
        if sampleInterval > .zero { try await Task.sleep(for: sampleInterval) }
        let elapsed = started.duration(to: clock.now)
        let after = try scan()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let processes = scanner.rank(
            before: before, after: after, elapsedSeconds: seconds, key: sortBy, limit: limit,
            ticksPerSecond: Double(max(1, sysconf(Int32(_SC_CLK_TCK)))),
            pageSize: UInt64(max(1, sysconf(Int32(_SC_PAGESIZE)))))
        return TopProcesses(
            sortedBy: sortBy,
            cpuPercentMeaning: "CPU time used during the sampling window as a percentage of one CPU",
            sampleMilliseconds: Int((seconds * 1000).rounded()), processCount: after.count, processes: processes)
    }

    private func scan() throws -> [Int32: ProcessStat] {
        do {
            return try scanner.scan()
        } catch {
            throw ResolveKitFunctionError.hostFailure(
                error, hint: "Is /proc mounted? This function needs Linux procfs.")
        }
    }
}
