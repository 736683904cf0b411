import Glibc

/// The arguments as a tool's table read them: which flags were given with which values, the command and the
/// operands. Values are already checked against their flag's kind (a number is a number in range, a choice is one
/// of its words); ``checkFiles()`` checks what needs the file system.
package struct ParsedCommandLine: Sendable {
    /// The flags in the order given, each with its value (`nil` for a switch).
    package private(set) var given: [(flag: Flag, value: String?)] = []
    /// The command word, for a tool with commands.
    package private(set) var command: CommandLineTool.Command?
    /// The words that are neither flags nor their values nor the command.
    package private(set) var operands: [String] = []

    init() {}

    mutating func add(_ flag: Flag, _ value: String?) { given.append((flag, value)) }
    mutating func add(operand: String) { operands.append(operand) }
    mutating func select(_ command: CommandLineTool.Command) { self.command = command }

    /// Whether the flag was given.
    package func has(_ flag: Flag) -> Bool { given.contains { $0.flag.name == flag.name } }

    /// The flag's value; the last one when it was given several times.
    package func value(_ flag: Flag) -> String? { given.last { $0.flag.name == flag.name }?.value }

    /// Every value of a repeatable flag, in order.
    package func values(_ flag: Flag) -> [String] { given.filter { $0.flag.name == flag.name }.compactMap(\.value) }

    /// The value of an ``Flag/Kind/integer(_:)`` flag.
    package func integer(_ flag: Flag) -> Int? { value(flag).flatMap { Int($0) } }

    /// The value of a ``Flag/Kind/number(_:)`` flag.
    package func number(_ flag: Flag) -> Double? { value(flag).flatMap { Double($0) } }

    /// Checks the flags and operands whose kind needs the file system: a file that must exist is readable, a
    /// folder that must exist is one.
    /// - Throws: ``UsageError`` naming the first that is not, e.g. `--api-key-file /nope does not exist`.
    package func checkFiles(operands operandKind: Flag.Kind? = nil) throws(UsageError) {
        for (flag, value) in given {
            guard let value else { continue }
            try Self.check(value, kind: flag.kind, naming: flag.name + " ")
        }
        if let operandKind {
            for operand in operands { try Self.check(operand, kind: operandKind, naming: "") }
        }
    }

    /// Checks what a value of `kind` needs from the file system (a file that must exist is readable, a folder that
    /// must exist is one, a folder made when missing is not a file); `name` starts the error, e.g. `"--ca-file "`
    /// or `"RESOLVEKIT_CA_FILE "`.
    /// - Throws: ``UsageError``, e.g. `--ca-file /nope does not exist`.
    package static func check(_ path: String, kind: Flag.Kind, naming name: String) throws(UsageError) {
        switch kind {
        case .file(mustExist: true):
            guard access(path, R_OK) != 0 else { return }
            let reason = access(path, F_OK) == 0 ? "cannot be read" : "does not exist"
            throw UsageError("\(name)\(path) \(reason)")
        case .writableFile:
            if isFolder(path) { throw UsageError("\(name)\(path) is a folder, not a file") }
            if access(path, F_OK) == 0 {
                guard access(path, W_OK) != 0 else { return }
                throw UsageError("\(name)\(path) cannot be written")
            }
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            let shown = folder.isEmpty ? "/" : folder
            guard isFolder(shown) else { throw UsageError("\(name)\(path): the folder \(shown) does not exist") }
            guard access(shown, W_OK | X_OK) != 0 else { return }
            throw UsageError("\(name)\(path): the folder \(shown) cannot be written")
        case .choiceOrFile(let words):
            guard !words.contains(path), access(path, R_OK) != 0 else { return }
            let list = words.joined(separator: ", ")
            throw UsageError(
                "\(name)expects \(list) or a readable file, got '\(path)'" + Suggestion.phrase(for: path, among: words))
        case .directory(mustExist: true, _):
            guard !isFolder(path) else { return }
            throw UsageError("\(name)\(path) is not an existing folder")
        case .directory(mustExist: false, _):
            // Made when missing, but a file in its place is never a folder.
            guard access(path, F_OK) == 0, !isFolder(path) else { return }
            throw UsageError("\(name)\(path) is a file, not a folder")
        default:
            return
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
