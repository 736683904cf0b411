import Foundation
import Glibc
import Synchronization

extension TerminalIO {
    /// The process's terminal: standard input (file descriptor 0) and standard output (1).
    ///
    /// Reads wait on a short-lived thread with `poll`, so no task of the cooperative pool blocks and a cancelled
    /// read returns within 50 ms without consuming input. Raw mode is restored on every exit path: by
    /// ``restore()``, and while raw also at process exit (`atexit`) and on `SIGINT`, `SIGTERM` and `SIGHUP`
    /// (restored, then the signal goes on to the host's previous handler or the default action). Entering raw mode
    /// discards typed-ahead input, so a key pressed before a prompt appeared never answers it.
    public static var live: TerminalIO {
        TerminalIO(
            environment: ProcessInfo.processInfo.environment,
            write: { text in LiveTerminal.write(text) },
            readInput: { await LiveTerminal.read() },
            isInteractive: { isatty(0) == 1 && isatty(1) == 1 },
            size: { LiveTerminal.size() },
            enterRawMode: { LiveTerminal.enterRawMode() },
            restore: { LiveTerminal.restore() })
    }

    /// The controlling terminal (`/dev/tty`) instead of standard input and output, for a process whose stdin and
    /// stdout carry something else (an MCP server's protocol). `nil` when the process has no controlling terminal.
    /// From then on the live terminal of this process reads and writes `/dev/tty`.
    public static func controllingTerminal() -> TerminalIO? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        LiveTerminal.use(fd)
        return TerminalIO(
            environment: ProcessInfo.processInfo.environment,
            write: { text in LiveTerminal.write(text) },
            readInput: { await LiveTerminal.read() },
            isInteractive: { isatty(fd) == 1 },
            size: { LiveTerminal.size() },
            enterRawMode: { LiveTerminal.enterRawMode() },
            restore: { LiveTerminal.restore() })
    }
}

/// The descriptors of the live terminal: standard input and output, or `/dev/tty` for both.
private let inputDescriptor = Atomic<Int32>(0)
private let outputDescriptor = Atomic<Int32>(1)

/// The saved terminal mode and the signal handlers replaced while raw, readable from a signal handler. Written
/// only by `enterRawMode` while `rawModeActive` is false, read only after it became true, so a handler never sees
/// a half-written value. A tuple, not an array: reading it allocates and retains nothing.
nonisolated(unsafe) private var savedMode = termios()
nonisolated(unsafe) private var previousHandlers: (__sighandler_t?, __sighandler_t?, __sighandler_t?) = (nil, nil, nil)
private let rawModeActive = Atomic<Bool>(false)
private let exitHandlerInstalled = Atomic<Bool>(false)

/// Restores the saved mode and the previous signal handlers if raw mode is on; async-signal-safe (an atomic
/// exchange, `tcsetattr` and `signal`).
private func restoreSavedMode() {
    guard rawModeActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
    _ = tcsetattr(inputDescriptor.load(ordering: .relaxed), TCSANOW, &savedMode)
    signal(SIGINT, previousHandlers.0)
    signal(SIGTERM, previousHandlers.1)
    signal(SIGHUP, previousHandlers.2)
}

/// While raw: restores the terminal and the host's handler, then delivers the signal again to that handler (or
/// the default action, which ends the process).
private func restoreAndResend(_ received: Int32) {
    restoreSavedMode()
    raise(received)
}

enum LiveTerminal {
    private static let writeLock = Mutex(())

    /// Reads and writes `fd` from now on.
    static func use(_ fd: Int32) {
        inputDescriptor.store(fd, ordering: .relaxed)
        outputDescriptor.store(fd, ordering: .relaxed)
    }

    private static var input: Int32 { inputDescriptor.load(ordering: .relaxed) }
    private static var output: Int32 { outputDescriptor.load(ordering: .relaxed) }

    static func write(_ text: String) {
        writeLock.withLock { _ in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    static func size() -> TerminalSize {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else {
            return TerminalSize(columns: 80, rows: 24)
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    static func enterRawMode() {
        guard isatty(input) == 1, !rawModeActive.load(ordering: .acquiring) else { return }
        var mode = termios()
        guard tcgetattr(input, &mode) == 0 else { return }
        savedMode = mode
        if !exitHandlerInstalled.exchange(true, ordering: .acquiringAndReleasing) { atexit { restoreSavedMode() } }
        previousHandlers = (signal(SIGINT, SIG_IGN), signal(SIGTERM, SIG_IGN), signal(SIGHUP, SIG_IGN))
        for (number, previous) in [
            (SIGINT, previousHandlers.0), (SIGTERM, previousHandlers.1), (SIGHUP, previousHandlers.2),
        ] {
            // A signal the host ignores stays ignored.
            if unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number) { restoreAndResend($0) }
            }
        }
        mode.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        mode.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        withUnsafeMutableBytes(of: &mode.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        rawModeActive.store(true, ordering: .releasing)
        if tcsetattr(input, TCSAFLUSH, &mode) != 0 { restoreSavedMode() }
    }

    static func restore() { restoreSavedMode() }

    /// Waits for input on a helper thread: `poll` with a 50 ms timeout, checking for cancellation in between.
    static func read() async -> [UInt8]? {
        let cancelled = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                Thread.detachNewThread {
                    continuation.resume(returning: pollAndRead(cancelled: cancelled))
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private static func pollAndRead(cancelled: CancellationFlag) -> [UInt8]? {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        while !cancelled.isSet {
            let ready = poll(&descriptor, 1, 50)
            if ready < 0, errno != EINTR { return nil }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return nil }
            return Array(buffer.prefix(count))
        }
        return []
    }
}

/// Set once when a read is cancelled; read by the polling thread.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
