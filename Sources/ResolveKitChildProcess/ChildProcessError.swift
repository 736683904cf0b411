import Glibc

/// Why a child process could not be started.
package struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier such as `spawn_failed`.
        package let rawValue: String
        /// Creates a code from its identifier.
        package init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        package var description: String { rawValue }

        /// The child could not be started: `execve` refused the executable (missing, not executable, not a format
        /// the kernel runs), its directory could not be entered, or the system is out of processes.
        package static let spawnFailed = Code("spawn_failed")
        /// The child's setup failed before its program: its standard streams, process group or signal request.
        package static let setupFailed = Code("setup_failed")
    }

    /// The kind of failure.
    package var code: Code
    /// The executable that was to run.
    package var executable: String
    /// The `errno` value the system returned.
    package var errno: Int32

    /// Creates an error.
    package init(code: Code, executable: String, errno: Int32) {
        self.code = code
        self.executable = executable
        self.errno = errno
    }

    /// `could not start /usr/bin/x: No such file or directory`.
    package var description: String {
        let reason = String(cString: strerror(errno))
        switch code {
        case .spawnFailed: return "could not start \(executable): \(reason)"
        default: return "could not prepare to start \(executable): \(reason)"
        }
    }
}
