/// The text of `rk-codegen --help`.
enum Help {
    static let text = """
        OVERVIEW: Generate ResolveKit tool conformances from annotated Swift source.

        Scans Swift files for structs annotated with `// @ResolveKit(name: …)` that conform to
        ResolveKitFunction, and writes one Swift file with their JSON Schemas, their invoke(arguments:context:)
        dispatch and a ResolveKitAutoRegistry listing them. The file is only written when its text changes.

        USAGE: rk-codegen <input> ... --output <file> [--module-name <name>] [--access internal|public]
                          [--manifest <file.json>] [--cache <directory>] [--check]

        ARGUMENTS:
          <input>                 Swift files or directories (searched recursively for .swift files).

        OPTIONS:
          -o, --output <file>     The generated Swift file (required). It is never scanned itself.
          --module-name <name>    The module named in the generated header and manifest (default: Module).
          --access <level>        Access level of ResolveKitAutoRegistry: internal (default) or public.
          --manifest <file.json>  Also write the registry as JSON: names, descriptions, schemas, flags.
          --cache <directory>     Keep each file's scan and the last result in <directory> (created if needed),
                                  keyed by path, size and content hash: the next run scans only the files that
                                  changed. If no declaration changed (an edit in a function body or a comment), the
                                  last result is the output; otherwise types are resolved and everything rendered
                                  again. The output is the same as without a cache; a damaged cache is ignored. The
                                  build plugin passes one in its work directory.
          --check                 Write nothing; exit 3 and print a diff if --output (or --manifest) is stale.
          -h, --help              Show this help.
          --version               Print the version.

        EXAMPLE:
          rk-codegen Sources/MyTools --output Sources/MyTools/Generated/ResolveKitAutoRegistry.swift \\
              --module-name MyTools --manifest tools.json

          where Sources/MyTools/SetLights.swift holds

          /// Turn the lights in a room on or off.
          /// - Parameters:
          ///   - room: Room name as the user says it, e.g. "kitchen".
          ///   - level: Brightness from 0 to 100.
          ///     - Minimum: 0
          ///     - Maximum: 100
          // @ResolveKit(name: "set_lights", timeout: 30, requiresApproval: true)
          struct SetLights: ResolveKitFunction {
              func perform(room: String, on: Bool, level: Int? = nil) async throws -> String { … }
          }

        EXIT CODES:
          0  success (or, with --check, the output is up to date)
          1  the sources have errors; they are printed as path:line:column: error: message
          64 usage error (unknown option, missing value, no inputs, no --output)
          3  --check found the output stale
          4  a file could not be read or written
        """
}
