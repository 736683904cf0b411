import ResolveKitCLI
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

    /// Reads the options from a parsed command line and checks what the table cannot: inputs and `--output` are
    /// required, and every input exists.
    /// - Throws: ``UsageError`` naming what is missing or wrong.
    static func make(_ parsed: ParsedCommandLine) throws(UsageError) -> CommandLineOptions {
        typealias Flags = CodegenFlags
        var options = CommandLineOptions()
        options.inputs = parsed.operands
        options.output = parsed.value(Flags.output)
        options.manifest = parsed.value(Flags.manifest)
        options.cache = parsed.value(Flags.cache)
        options.moduleName = parsed.value(Flags.moduleName) ?? options.moduleName
        options.access = parsed.value(Flags.access).flatMap(CodegenOptions.RegistryAccess.init(rawValue:)) ?? .internal
        options.check = parsed.has(Flags.check)
        guard !options.inputs.isEmpty else { throw UsageError("no input files or directories given") }
        guard options.output != nil else { throw UsageError("--output FILE is required") }
        try parsed.checkFiles(operands: CodegenFlags.tool.operands?.kind)
        return options
    }

    /// Parses `arguments` (without the program name), as ``make(_:)`` after the table's parse.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        try make(try CodegenFlags.tool.parse(arguments))
    }
}
