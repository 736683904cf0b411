internal import CSpawn
import Foundation
import Glibc

/// One `posix_spawn` call: the file actions that wire the child's standard streams and close every other
/// descriptor, and the attributes that give it a process group and clean signal state.
///
/// The child ends with this process: it is started through util-linux's `setpriv --pdeathsig SIGTERM`, which asks
/// the kernel to send it SIGTERM when its parent thread ends (``SpawningThreads``'s threads live as long as the
/// process) and then runs the program in the same process, with the same pid. A process in a group of its own would
/// otherwise outlive a parent killed with SIGKILL or interrupted with Ctrl-C: a test run cut short left its
/// `redis-server` and `nginx` running, a killed service its commands. SIGTERM, not SIGKILL, so a server stops its
/// own children too (nginx its workers). Without `setpriv` (it is in every Debian and Ubuntu system, as part of the
/// essential `util-linux`), the program runs directly and may outlive this process.
struct SpawnRequest: Sendable {
    /// What runs the program, after asking for the signal.
    static let launcher = "/usr/bin/setpriv"
    private static let hasLauncher = access(launcher, X_OK) == 0

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

    /// Starts the child and returns its pid.
    func spawn() throws(ChildProcessError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        try addStreams(to: &actions)
        try check(posix_spawn_file_actions_addclosefrom_np(&actions, 3))
        if let currentDirectory { try check(posix_spawn_file_actions_addchdir_np(&actions, currentDirectory)) }
        try setSignalsAndGroup(&attributes)

        // Through the launcher, what `execve` refuses would be its exit status: that much is checked here first.
        try checkExecutable()
        let launch =
            Self.hasLauncher
            ? [Self.launcher, "--pdeathsig", "TERM", "--", Self.pathForLauncher(executable)]
            : [executable]
        let argv = CStrings(launch + arguments)
        let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        defer {
            argv.free()
            envp.free()
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, launch[0], &actions, &attributes, argv.pointers, envp.pointers)
        guard result == 0 else { throw ChildProcessError(code: .spawnFailed, executable: executable, errno: result) }
        return pid
    }

    /// `executable` as the launcher must be given it: `/proc/self/…` (this program, `/proc/self/exe`) would name the
    /// launcher's own files there, and a bare name would be looked for in `PATH`.
    private static func pathForLauncher(_ executable: String) -> String {
        if executable.hasPrefix("/proc/self/") { return "/proc/\(getpid())/" + executable.dropFirst(11) }
        return executable.contains("/") ? executable : "./" + executable
    }

    /// Throws what `execve` would for a missing file (`ENOENT`), one that is not an executable file (`EACCES`).
    private func checkExecutable() throws(ChildProcessError) {
        var path = executable
        if !executable.hasPrefix("/"), let currentDirectory { path = currentDirectory + "/" + executable }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ChildProcessError(code: .spawnFailed, executable: executable, errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
            throw ChildProcessError(code: .spawnFailed, executable: executable, errno: EACCES)
        }
    }

    private func addStreams(to actions: inout posix_spawn_file_actions_t) throws(ChildProcessError) {
        for (target, stream) in zip(Int32(0)..., streams) {
            switch stream {
            case .inherit:
                continue
            case .nullDevice:
                try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0))
            case .pipe(let pipe):
                let end = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                try check(posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target))
            case .fileHandle(let handle):
                try check(posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target))
            }
        }
    }

    private func setSignalsAndGroup(_ attributes: inout posix_spawnattr_t) throws(ChildProcessError) {
        var none = sigset_t()
        sigemptyset(&none)
        try check(posix_spawnattr_setsigmask(&attributes, &none))
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        for signal in Self.defaultedSignals { sigaddset(&defaulted, signal) }
        try check(posix_spawnattr_setsigdefault(&attributes, &defaulted))
        try check(posix_spawnattr_setpgroup(&attributes, 0))
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)))
    }

    private func check(_ result: Int32) throws(ChildProcessError) {
        guard result == 0 else { throw ChildProcessError(code: .setupFailed, executable: executable, errno: result) }
    }
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
