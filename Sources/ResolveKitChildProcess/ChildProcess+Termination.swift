extension ChildProcess {
    /// How a child process ended.
    package struct Termination: Sendable, Hashable, CustomStringConvertible {
        /// Whether it exited or was killed by a signal.
        package enum Reason: Sendable, Hashable {
            /// It called `exit`; ``status`` is its exit code.
            case exit
            /// A signal it did not handle ended it; ``status`` is the signal's number.
            case uncaughtSignal
        }

        /// Whether it exited or was killed by a signal.
        package var reason: Reason
        /// The exit code, or the number of the signal that ended it.
        package var status: Int32

        /// Creates a termination.
        package init(reason: Reason, status: Int32) {
            self.reason = reason
            self.status = status
        }

        /// The termination `waitpid` reports in `waitStatus`.
        init(waitStatus: Int32) {
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
            if waitStatus & 0x7f == 0 {
                self.init(reason: .exit, status: (waitStatus >> 8) & 0xff)
            } else {
                self.init(reason: .uncaughtSignal, status: waitStatus & 0x7f)
            }
        }

        /// `exit 3` or `signal 15`.
        package var description: String {
            reason == .exit ? "exit \(status)" : "signal \(status)"
        }
    }
}
