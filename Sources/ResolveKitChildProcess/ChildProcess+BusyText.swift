import Foundation
import Glibc

extension ChildProcess {
    /// The waits between attempts to start a program `execve` finds busy: 1 ms, doubling to 128 ms (255 ms in all).
    package static let busyTextDelays: [Duration] = (0..<8).map { .milliseconds(1 << $0) }

    /// Runs `attempt`, and again after each of `delays` while it fails with `ETXTBSY`.
    ///
    /// `execve` refuses a program while any process holds it open for writing, and a child started on another
    /// thread holds every descriptor its parent had open until it runs its own program (close-on-exec acts only
    /// then). So a program this process has just written and closed is refused for the moment another spawn takes:
    /// worth waiting out. A file someone keeps open for writing is still refused after the last delay.
    package static func retryingBusyText<T>(
        delays: [Duration] = busyTextDelays, sleep: (Duration) -> Void = sleepThread,
        _ attempt: () throws(ChildProcessError) -> T
    ) throws(ChildProcessError) -> T {
        for delay in delays {
            do {
                return try attempt()
            } catch {
                guard error.errno == ETXTBSY else { throw error }
                sleep(delay)
            }
        }
        return try attempt()
    }

    /// Blocks the calling thread for `duration`.
    package static func sleepThread(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        while true {
            var request = remaining
            guard nanosleep(&request, &remaining) == -1, errno == EINTR else { return }
        }
    }
}
