import Synchronization

/// A terminal for tests: scripted key bytes in, the written text and the resulting screen out.
///
/// ```swift
/// let terminal = FakeTerminal()
/// terminal.type("a")
/// let approver = TerminalApprover(screen: TerminalScreen(terminal: terminal.io), clock: ResolveKitClock(ManualClock()))
/// let decision = await approver.decide(request)
/// #expect(terminal.screen.contains("approved"))
/// ```
/// Output is interpreted by a small emulator (cursor up, clear to end of screen/line, colours ignored), so
/// ``screen`` shows what a person would see after in-place redraws; ``output`` keeps the raw text.
public final class FakeTerminal: Sendable {
    /// The bytes of the arrow-up key.
    public static let arrowUp: [UInt8] = [0x1B, 0x5B, 0x41]
    /// The bytes of the arrow-down key.
    public static let arrowDown: [UInt8] = [0x1B, 0x5B, 0x42]
    /// The byte of the Enter key in raw mode.
    public static let enter: [UInt8] = [0x0D]
    /// The byte of the Escape key.
    public static let escape: [UInt8] = [0x1B]
    /// The byte of Ctrl-C.
    public static let controlC: [UInt8] = [0x03]
    /// The byte of Ctrl-D.
    public static let controlD: [UInt8] = [0x04]

    fileprivate struct State {
        var input: [[UInt8]?] = []
        var endOfInput = false
        var reader: CheckedContinuation<[UInt8]?, Never>?
        var readerID = 0
        var readRequestWaiters: [CheckedContinuation<Void, Never>] = []
        var screenWaiters: [(text: String, continuation: CheckedContinuation<Void, Never>)] = []
        var output = ""
        var screen: VirtualScreen
        var rawMode = false
        var rawModeEntries = 0
        var interactive: Bool
    }

    private let state: Mutex<State>
    private let environment: [String: String]

    /// Creates a terminal.
    /// - Parameters:
    ///   - columns: the window width.
    ///   - rows: the window height.
    ///   - isInteractive: whether it claims to be a TTY.
    ///   - environment: the colour-relevant variables; an xterm with colours by default.
    public init(
        columns: Int = 80, rows: Int = 24, isInteractive: Bool = true,
        environment: [String: String] = ["TERM": "xterm-256color"]
    ) {
        state = Mutex(
            State(screen: VirtualScreen(size: TerminalSize(columns: columns, rows: rows)), interactive: isInteractive))
        self.environment = environment
    }

    /// The terminal seam to hand to the code under test.
    public var io: TerminalIO {
        TerminalIO(
            environment: environment,
            write: { [self] text in
                let ready = state.withLock { state in
                    state.output += text
                    state.screen.write(text)
                    return state.takeScreenWaiters()
                }
                ready.forEach { $0.resume() }
            },
            readInput: { [self] in await read() },
            isInteractive: { [self] in state.withLock { $0.interactive } },
            size: { [self] in state.withLock { $0.screen.size } },
            enterRawMode: { [self] in
                state.withLock { state in
                    state.rawMode = true
                    state.rawModeEntries += 1
                }
            },
            restore: { [self] in state.withLock { $0.rawMode = false } })
    }

    /// Queues bytes as one chunk of input.
    public func send(_ bytes: [UInt8]) {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            guard let reader = state.reader else {
                state.input.append(bytes)
                return nil
            }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: bytes)
    }

    /// Queues the UTF-8 bytes of `text` as one chunk of input.
    public func type(_ text: String) { send(Array(text.utf8)) }

    /// Ends the input: reads return `nil` once the queued chunks are consumed.
    public func endInput() {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            guard let reader = state.reader else {
                state.input.append(nil)
                return nil
            }
            state.reader = nil
            state.endOfInput = true
            return reader
        }
        reader?.resume(returning: nil)
    }

    /// Changes the window size (text already written is not reflowed).
    public func resize(columns: Int, rows: Int) {
        state.withLock { $0.screen.size = TerminalSize(columns: columns, rows: rows) }
    }

    /// Everything written, escape sequences included.
    public var output: String { state.withLock { $0.output } }

    /// What the screen shows now, scrollback included: one line per row, trailing blanks removed.
    public var screen: String { screenLines.joined(separator: "\n") }

    /// The rows of ``screen``.
    public var screenLines: [String] { state.withLock { $0.screen.lines } }

    /// Whether raw mode is on now.
    public var isInRawMode: Bool { state.withLock { $0.rawMode } }

    /// How many times raw mode was entered.
    public var rawModeEntries: Int { state.withLock { $0.rawModeEntries } }

    /// Returns once a read is waiting and no queued input is left: everything sent so far has been taken and the
    /// reader has come back for more. Waits on a continuation, not by polling; give the test a time limit.
    public func waitForInputRequest() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.reader == nil else { return true }
                state.readRequestWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once ``screen`` contains `text`: at once if it does now, else after the write that makes it so.
    /// Waits on a continuation, not by polling; give the test a time limit.
    public func waitForScreen(containing text: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard !state.screen.lines.joined(separator: "\n").contains(text) else { return true }
                state.screenWaiters.append((text, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func read() async -> [UInt8]? {
        let id = state.withLock { state in
            state.readerID += 1
            return state.readerID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
                enum Next { case chunk([UInt8]?), cancelled, waiting([CheckedContinuation<Void, Never>]) }
                let next = state.withLock { state -> Next in
                    if state.endOfInput { return .chunk(nil) }
                    if !state.input.isEmpty {
                        let chunk = state.input.removeFirst()
                        if chunk == nil { state.endOfInput = true }
                        return .chunk(chunk)
                    }
                    if state.readerID != id { return .cancelled }
                    state.reader = continuation
                    defer { state.readRequestWaiters = [] }
                    return .waiting(state.readRequestWaiters)
                }
                switch next {
                case .chunk(let chunk): continuation.resume(returning: chunk)
                case .cancelled: continuation.resume(returning: [])
                case .waiting(let waiters): waiters.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
                state.readerID += 1
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: [])
        }
    }
}

extension FakeTerminal.State {
    /// Removes and returns the screen waiters whose text is now on the screen.
    fileprivate mutating func takeScreenWaiters() -> [CheckedContinuation<Void, Never>] {
        guard !screenWaiters.isEmpty else { return [] }
        let text = screen.lines.joined(separator: "\n")
        let ready = screenWaiters.filter { text.contains($0.text) }.map(\.continuation)
        screenWaiters.removeAll { text.contains($0.text) }
        return ready
    }
}
