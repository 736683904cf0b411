import Glibc
import Synchronization

/// Where span timestamps come from: the system's wall clock (`CLOCK_REALTIME`), or a test's.
public struct TelemetryTime: Sendable {
    private let read: @Sendable () -> UInt64

    /// A time source that calls `read` for nanoseconds since the Unix epoch.
    public init(_ read: @escaping @Sendable () -> UInt64) {
        self.read = read
    }

    /// Now, in nanoseconds since the Unix epoch.
    public func now() -> UInt64 { read() }

    /// The system's wall clock.
    public static let system = TelemetryTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A clock that starts at `start` and moves `step` nanoseconds forward at every reading, so a test's
    /// timestamps are distinct and ordered.
    public static func stepping(from start: UInt64, by step: UInt64 = 1_000) -> TelemetryTime {
        let next = Atomic<UInt64>(start)
        return TelemetryTime { next.wrappingAdd(step, ordering: .relaxed).oldValue }
    }
}
