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

        /// `posix_spawn` refused: the executable is missing or not executable, or the system is out of processes.
        package static let spawnFailed = Code("spawn_failed")
        /// The spawn could not be prepared (its file actions or attributes).
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
