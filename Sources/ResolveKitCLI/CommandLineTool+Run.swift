import Glibc

extension CommandLineTool {
    /// Parses the process's arguments the way every tool does: `--help`, `--version` and the generated scripts
    /// are printed and exit 0; a mistake is reported (``UsageError/report(for:)``) and exits 64.
    /// - Parameters:
    ///   - arguments: the arguments without the program name.
    ///   - version: what `--version` prints after the name.
    /// - Returns: the parsed command line, when the tool has work to do.
    package func parseOrExit(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), version: String
    ) -> ParsedCommandLine {
        let parsed: ParsedCommandLine
        do {
            parsed = try parse(arguments)
        } catch {
            exit(with: error)
        }
        if parsed.has(Self.helpFlag) {
            Self.write(help + "\n", to: STDOUT_FILENO)
            Glibc.exit(0)
        }
        if parsed.has(Self.versionFlag) {
            Self.write("\(name) \(version)\n", to: STDOUT_FILENO)
            Glibc.exit(0)
        }
        if let shell = parsed.value(Self.completionFlag).flatMap(Shell.init(rawValue:)) {
            Self.write(completionScript(for: shell), to: STDOUT_FILENO)
            Glibc.exit(0)
        }
        if parsed.has(Self.manualFlag) {
            Self.write(manualPage(version: version), to: STDOUT_FILENO)
            Glibc.exit(0)
        }
        return parsed
    }

    /// Reports a usage error on stderr and exits 64.
    package func exit(with error: UsageError) -> Never {
        Self.write(error.report(for: name), to: STDERR_FILENO)
        Glibc.exit(UsageError.exitCode)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
