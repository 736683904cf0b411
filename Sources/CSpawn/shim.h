#ifndef RESOLVEKIT_CSPAWN_SHIM_H
#define RESOLVEKIT_CSPAWN_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

// Starting a child process: `rk_spawn`, for `ResolveKitChildProcess`.

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/// The step of a start that failed, with the `errno` it failed with.
enum {
    RK_SPAWN_STEP_PREPARE = 1,
    RK_SPAWN_STEP_FORK = 2,
    RK_SPAWN_STEP_STREAMS = 3,
    RK_SPAWN_STEP_DIRECTORY = 4,
    RK_SPAWN_STEP_EXEC = 5,
};

/// A standard stream the child keeps as it is, or gets on `/dev/null`.
enum { RK_SPAWN_INHERIT = -1, RK_SPAWN_NULL_DEVICE = -2 };

/// What a child that could not run its program tells its parent: the step that failed and its `errno`.
typedef struct {
    int step;
    int error;
} rk_spawn_failure;

/// The child's side: reports a failed step in the parent's memory, which it shares until it ends, and ends.
__attribute__((noreturn)) static inline void rk_spawn_fail(volatile rk_spawn_failure *report, int step, int error) {
    report->error = error;
    report->step = step;
    _exit(127);
}

/// The child's side, between `vfork` and `execve`: system calls only, no allocation, nothing the parent reads written
/// but `report` (the two share memory until the child runs its program or ends). Never inlined: its locals must be
/// in a frame of its own, below the parent's, not in slots of the parent's frame.
__attribute__((noreturn, noinline)) static inline void rk_spawn_child(
    const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
    const sigset_t *defaulted, int death_signal, pid_t parent, long max_descriptors,
    volatile rk_spawn_failure *report) {
    // No handler of the parent's may run here; the listed signals the parent ignores must not stay ignored.
    for (int number = 1; number < NSIG; number++) {
        if (number == SIGKILL || number == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(number, NULL, &current) != 0) continue;  // glibc's own signals
        int handled = current.sa_handler != SIG_IGN && current.sa_handler != SIG_DFL;
        if (handled || sigismember(defaulted, number) == 1) {
            struct sigaction plain = {0};
            plain.sa_handler = SIG_DFL;
            sigaction(number, &plain, NULL);
        }
    }
    if (setpgid(0, 0) != 0) rk_spawn_fail(report, RK_SPAWN_STEP_PREPARE, errno);
    if (death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, death_signal) != 0) rk_spawn_fail(report, RK_SPAWN_STEP_PREPARE, errno);
        // The parent ended before the request was made: the signal will never come, so end now.
        if (getppid() != parent) _exit(127);
    }

    int descriptors[3];
    for (int target = 0; target < 3; target++) {
        descriptors[target] = streams[target];
        if (streams[target] == RK_SPAWN_NULL_DEVICE) {
            descriptors[target] = open("/dev/null", O_RDWR | O_CLOEXEC);
            if (descriptors[target] < 0) rk_spawn_fail(report, RK_SPAWN_STEP_STREAMS, errno);
        }
    }
    // A source among 0-2 would be overwritten by an earlier `dup2`: move it out of the way first.
    for (int target = 0; target < 3; target++) {
        if (descriptors[target] < 0 || descriptors[target] > 2) continue;
        descriptors[target] = fcntl(descriptors[target], F_DUPFD_CLOEXEC, 3);
        if (descriptors[target] < 0) rk_spawn_fail(report, RK_SPAWN_STEP_STREAMS, errno);
    }
    for (int target = 0; target < 3; target++) {
        if (descriptors[target] >= 0 && dup2(descriptors[target], target) < 0) {
            rk_spawn_fail(report, RK_SPAWN_STEP_STREAMS, errno);
        }
    }
    // Every other descriptor closes at `execve`, not before: a program named `/proc/self/fd/N` is opened by
    // `execve` itself.
    if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {  // Linux before 5.11
        for (long descriptor = 3; descriptor < max_descriptors; descriptor++) {
            fcntl((int)descriptor, F_SETFD, FD_CLOEXEC);
        }
    }
    if (directory != NULL && chdir(directory) != 0) rk_spawn_fail(report, RK_SPAWN_STEP_DIRECTORY, errno);

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    rk_spawn_fail(report, RK_SPAWN_STEP_EXEC, errno);
}

/// Starts `path` in a child of the calling thread and returns its pid once it runs the program, or -1 with the step
/// that failed and its `errno` (the child's own, for a failed `execve`).
///
/// The child gets `streams` as its standard input, output and error (a descriptor, `RK_SPAWN_INHERIT` or
/// `RK_SPAWN_NULL_DEVICE`) and no other descriptor, a process group of its own, no signal blocked, the signals in
/// `defaulted` at their default action, and, unless `death_signal` is 0, that signal when the calling thread ends.
/// `posix_spawn` cannot ask for the last. `vfork`, as `posix_spawn` does: the parent thread waits until the child
/// runs its program or fails, and none of the parent's pages is copied or made copy-on-write, as `fork` would for a
/// process of any size.
static inline pid_t rk_spawn(
    const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
    const sigset_t *defaulted, int death_signal, int *failed_step, int *failed_error) {
    volatile rk_spawn_failure report = {0, 0};
    long max_descriptors = sysconf(_SC_OPEN_MAX);
    pid_t parent = getpid();
    // Blocked across `vfork`, so no handler of the parent's runs in the child before it has reset them.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = vfork();
    if (pid == 0) {
        rk_spawn_child(path, argv, envp, streams, directory, defaulted, death_signal, parent, max_descriptors,
                       &report);
    }
    int vfork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (pid < 0) {
        *failed_step = RK_SPAWN_STEP_FORK;
        *failed_error = vfork_error;
        return -1;
    }
    if (report.step == 0) return pid;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    *failed_step = report.step;
    *failed_error = report.error;
    return -1;
}

#endif
