/// The size of a terminal in character cells.
public struct TerminalSize: Sendable, Hashable {
    /// Columns per row.
    public var columns: Int
    /// Rows on the screen.
    public var rows: Int

    /// Creates a size; values below 1 are raised to 1.
    public init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
    }
}

/// The outside world of a terminal program, injected: bytes out, bytes in, whether a person is there, the
/// window size and raw mode.
///
/// Use ``live`` for the process's standard input and output, or ``FakeTerminal/io`` in tests. Everything the
/// terminal module shows goes through ``write(_:)``; nothing prints directly.
public struct TerminalIO: Sendable {
    private let writer: @Sendable (String) -> Void
    private let reader: @Sendable () async -> [UInt8]?
    private let interactive: @Sendable () -> Bool
    private let sizeProvider: @Sendable () -> TerminalSize
    private let rawModeEntry: @Sendable () -> Void
    private let rawModeExit: @Sendable () -> Void

    /// The environment variables that decide colours (`NO_COLOR`, `TERM`).
    public let environment: [String: String]

    /// Creates a terminal from closures.
    /// - Parameters:
    ///   - environment: the variables that decide colours (`NO_COLOR`, `TERM`).
    ///   - write: writes text as it is, escape sequences included.
    ///   - readInput: the next bytes typed, as they arrive; `nil` at the end of input; an empty array when the
    ///     calling task was cancelled.
    ///   - isInteractive: whether input and output are a terminal a person uses.
    ///   - size: the current window size.
    ///   - enterRawMode: switches input to byte-at-a-time without echo.
    ///   - restore: undoes ``enterRawMode()``.
    public init(
        environment: [String: String],
        write: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable () async -> [UInt8]?,
        isInteractive: @escaping @Sendable () -> Bool,
        size: @escaping @Sendable () -> TerminalSize,
        enterRawMode: @escaping @Sendable () -> Void,
        restore: @escaping @Sendable () -> Void
    ) {
        self.environment = environment
        self.writer = write
        self.reader = readInput
        self.interactive = isInteractive
        self.sizeProvider = size
        self.rawModeEntry = enterRawMode
        self.rawModeExit = restore
    }

    /// Writes text as it is.
    public func write(_ text: String) { writer(text) }

    /// The next bytes typed, as they arrive: `nil` at the end of input, an empty array when the calling task was
    /// cancelled while waiting (nothing is consumed then).
    public func readInput() async -> [UInt8]? { await reader() }

    /// Whether standard input and output are both a terminal, so a person can answer.
    public var isInteractive: Bool { interactive() }

    /// The window size now (queried on every access, so it follows resizes).
    public var size: TerminalSize { sizeProvider() }

    /// Switches input to raw mode: each key as it is typed, no echo, Ctrl-C as a byte.
    public func enterRawMode() { rawModeEntry() }

    /// Restores the mode that ``enterRawMode()`` replaced. Harmless when not in raw mode.
    public func restore() { rawModeExit() }

    /// Runs `body` in raw mode and restores the terminal when it returns, throws or is cancelled.
    public func withRawMode<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        enterRawMode()
        defer { restore() }
        return try await body()
    }

    /// What this terminal can show, from ``environment`` and ``isInteractive``.
    public var capabilities: TerminalCapabilities {
        TerminalCapabilities(environment: environment, isTerminal: isInteractive)
    }
}

/// What a terminal can show: colours and cursor movement.
public struct TerminalCapabilities: Sendable, Hashable {
    /// Whether ANSI colours and bold may be used.
    public var colors: Bool
    /// Whether the cursor may be moved to redraw lines in place.
    public var cursorControl: Bool

    /// Creates capabilities.
    public init(colors: Bool, cursorControl: Bool) {
        self.colors = colors
        self.cursorControl = cursorControl
    }

    /// Decides from the environment: no escape codes at all when not a terminal or `TERM=dumb`; no colours when
    /// `NO_COLOR` is set to any value (https://no-color.org), cursor movement still allowed then.
    public init(environment: [String: String], isTerminal: Bool) {
        let capable = isTerminal && environment["TERM"] != "dumb"
        self.init(colors: capable && environment["NO_COLOR"] == nil, cursorControl: capable)
    }

    /// Plain text only: no colours, no cursor movement.
    public static let plain = TerminalCapabilities(colors: false, cursorControl: false)
}
