import ResolveKitCodegen

/// The validated command line of `rk-codegen`.
struct CommandLineOptions: Equatable {
    var inputs: [String] = []
    var output: String?
    var manifest: String?
    /// The directory that keeps each file's model between runs (`--cache`).
    var cache: String?
    var moduleName = "Module"
    var access = CodegenOptions.RegistryAccess.internal
    var check = false
    var help = false
    var version = false

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown option, a missing or invalid value, or missing inputs/output.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError("option \(name) needs a value")
                }
                return next
            }
            switch name {
            case "--help", "-h": options.help = true
            case "--version": options.version = true
            case "--output", "-o": options.output = try value()
            case "--manifest": options.manifest = try value()
            case "--cache": options.cache = try value()
            case "--module-name": options.moduleName = try value()
            case "--access":
                let text = try value()
                guard let access = CodegenOptions.RegistryAccess(rawValue: text) else {
                    throw UsageError("--access must be 'public' or 'internal', not '\(text)'")
                }
                options.access = access
            case "--check": options.check = true
            case "--":
                options.inputs += remaining
                remaining = []
            default:
                guard !argument.hasPrefix("-") else { throw UsageError("unknown option '\(argument)'") }
                options.inputs.append(argument)
            }
        }
        guard !options.help, !options.version else { return options }
        guard !options.inputs.isEmpty else { throw UsageError("no input files or directories given") }
        guard options.output != nil else { throw UsageError("--output <file> is required") }
        return options
    }
}

/// A command line that cannot be run; exit code 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the command line.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
