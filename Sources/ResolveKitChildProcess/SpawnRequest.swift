internal import CSpawn
import Foundation
import Glibc

/// One child to start: its program, arguments, environment, directory and standard streams.
///
/// The child ends with this process: it asks the kernel for SIGTERM when its parent thread ends
/// (`PR_SET_PDEATHSIG`; ``SpawningThreads``'s threads live as long as the process) before it runs the program, and
/// ends at once if its parent is already gone. A process in a group of its own would otherwise outlive a parent
/// killed with SIGKILL or interrupted with Ctrl-C: a test run cut short left its `redis-server` and `nginx` running,
/// a killed service its commands. SIGTERM, not SIGKILL, so a server stops its own children too (nginx its workers).
/// `posix_spawn` cannot make that request, so the start is `vfork` and `execve` in C (`rk_spawn`), which also
/// reports each failure, `execve`'s included, with its `errno`.
struct SpawnRequest: Sendable {
    var executable: String
    var arguments: [String]
    var environment: [String: String]
    var currentDirectory: String?
    /// Standard input, output and error, in that order.
    var streams: [ChildProcess.Stream]

    /// Signals the parent may ignore (an ignored signal stays ignored across `exec`) that the child must not.
    private static let defaultedSignals = [
        SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
    ]

    /// Starts the child and returns its pid once it runs the program.
    func spawn() throws(ChildProcessError) -> pid_t {
        let argv = CStrings([executable] + arguments)
        let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        defer {
            argv.free()
            envp.free()
        }
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        for signal in Self.defaultedSignals { sigaddset(&defaulted, signal) }
        let descriptors = streams.enumerated().map { Self.descriptor($1, forInput: $0 == 0) }
        var step: Int32 = 0
        var error: Int32 = 0
        let pid = descriptors.withUnsafeBufferPointer { descriptors in
            withOptionalCString(currentDirectory) { directory in
                rk_spawn(
                    executable, argv.pointers, envp.pointers, descriptors.baseAddress, directory, &defaulted, SIGTERM,
                    &step, &error)
            }
        }
        guard pid < 0 else { return pid }
        let started = [Int32(RK_SPAWN_STEP_FORK), Int32(RK_SPAWN_STEP_DIRECTORY), Int32(RK_SPAWN_STEP_EXEC)]
        throw ChildProcessError(
            code: started.contains(step) ? .spawnFailed : .setupFailed, executable: executable, errno: error)
    }

    /// What `rk_spawn` takes for one standard stream: of a pipe, the read end for input, the write end for output.
    private static func descriptor(_ stream: ChildProcess.Stream, forInput: Bool) -> Int32 {
        switch stream {
        case .inherit: Int32(RK_SPAWN_INHERIT)
        case .nullDevice: Int32(RK_SPAWN_NULL_DEVICE)
        case .pipe(let pipe): (forInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor
        case .fileHandle(let handle): handle.fileDescriptor
        }
    }
}

/// Calls `body` with `string` as a C string, or with `nil`.
private func withOptionalCString<Result>(
    _ string: String?, _ body: (UnsafePointer<CChar>?) -> Result
) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// A NULL-terminated array of C strings, for `argv` and `envp`; freed by ``free()``.
private struct CStrings {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    func free() {
        for pointer in pointers { Glibc.free(pointer) }
    }
}
