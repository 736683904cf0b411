import ResolveKitCLI
import ResolveKitCodegen

/// `rk-codegen`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum CodegenFlags {
    static let output = Flag(
        "--output", short: "-o", value: "FILE", kind: .file(mustExist: false),
        help: "The generated Swift file (required). It is never scanned itself.")
    static let moduleName = Flag(
        "--module-name", value: "NAME",
        help: "The module named in the generated header and manifest (default: Module).")
    static let access = Flag(
        "--access", value: "LEVEL", kind: .choice(["internal", "public"]),
        help: "Access level of ResolveKitAutoRegistry: internal (default) or public.")
    static let manifest = Flag(
        "--manifest", value: "FILE", kind: .file(mustExist: false),
        help: "Also write the registry as JSON: names, descriptions, schemas, flags.")
    static let cache = Flag(
        "--cache", value: "DIRECTORY", kind: .directory(mustExist: false, absolute: false),
        help: "Keep each file's scan and the last result in DIRECTORY (created if needed), keyed by path, size and "
            + "content hash: the next run scans only the files that changed. If no declaration changed (an edit in "
            + "a function body or a comment), the last result is the output; otherwise types are resolved and "
            + "everything rendered again. The output is the same as without a cache; a damaged cache is ignored. "
            + "The build plugin passes one in its work directory.")
    static let check = Flag(
        "--check", help: "Write nothing; exit 3 and print a diff if --output (or --manifest) is stale.")

    static let tool = CommandLineTool(
        name: "rk-codegen",
        summary: "generate ResolveKit tool conformances from annotated Swift source",
        discussion: """
            Scans Swift files for structs annotated with `// @ResolveKit(name: …)` that conform to \
            ResolveKitFunction, and writes one Swift file with their JSON Schemas, their invoke(arguments:context:) \
            dispatch and a ResolveKitAutoRegistry listing them. The file is only written when its text changes.

            The backend's timeout for a call includes the wait for a person's approval: a function that needs \
            approval is registered with timeout \(ApprovalTime.defaultSeconds) when its annotation gives none, and \
            one whose timeout is under \(ApprovalTime.minimumSeconds) seconds gets a warning.
            """,
        usage: [
            "rk-codegen <input> ... --output <file> [--module-name <name>] [--access internal|public]",
            "           [--manifest <file.json>] [--cache <directory>] [--check]",
        ],
        operands: .init(
            "<input> ...", kind: .file(mustExist: true),
            help: "Swift files or directories (searched recursively for .swift files)."),
        groups: [FlagGroup(nil, [output, moduleName, access, manifest, cache, check])],
        sections: [
            .init(
                "EXAMPLE",
                """
                rk-codegen Sources/MyTools --output Sources/MyTools/Generated/ResolveKitAutoRegistry.swift \\
                    --module-name MyTools --manifest tools.json

                where Sources/MyTools/SetLights.swift holds

                /// Turn the lights in a room on or off.
                /// - Parameters:
                ///   - room: Room name as the user says it, e.g. "kitchen".
                ///   - level: Brightness from 0 to 100.
                ///     - Minimum: 0
                ///     - Maximum: 100
                // @ResolveKit(name: "set_lights", timeout: 60, requiresApproval: true)
                struct SetLights: ResolveKitFunction {
                    func perform(room: String, on: Bool, level: Int? = nil) async throws -> String { … }
                }
                """),
            .init(
                "EXIT CODES",
                """
                0  success (or, with --check, the output is up to date)
                1  the sources have errors; they are printed as path:line:column: error: message
                3  --check found the output stale
                4  a file could not be read or written, or an input file is not a .swift file
                64 usage error (unknown option, missing value, no inputs, an input that does not exist, no --output)
                """),
        ])
}
