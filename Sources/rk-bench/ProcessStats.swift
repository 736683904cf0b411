import Foundation
import Glibc

/// This process's resident memory and CPU time, and its open-file limit.
enum ProcessStats {
    /// Resident set size in KiB (`/proc/self/statm`, second field, in pages).
    static func residentKiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let resident = Double(fields[1]) else { return 0 }
        return resident * Double(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    /// User plus system CPU seconds of the whole process, every thread.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Seconds this process's live threads have spent runnable but waiting for a core (the second field of each
    /// `/proc/self/task/*/schedstat`): how long the machine kept it waiting. Threads that ended are not counted.
    static func runQueueWaitSeconds() -> Double {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return 0 }
        var nanoseconds = 0.0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "/proc/self/task/\(thread)/schedstat", encoding: .utf8)
            else { continue }
            let fields = text.split(separator: " ")
            if fields.count > 1, let waited = Double(fields[1]) { nanoseconds += waited }
        }
        return nanoseconds / 1e9
    }

    /// Raises the soft open-file limit to the hard one (1,000 streams need more than the usual 1,024 descriptors
    /// with the server in the same process) and returns the new soft limit.
    @discardableResult
    static func raiseOpenFileLimit() -> UInt {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return UInt(limit.rlim_cur)
    }
}
