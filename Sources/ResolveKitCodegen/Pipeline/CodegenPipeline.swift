/// The generator: scan → declaration model → function manifest → rendered Swift (and JSON manifest).
///
/// Each stage has its own boundary type (`Token`, `SourceFileModel`, `CodegenManifest`, text), so each can be
/// tested alone. The output depends only on the inputs' paths and contents, never on their order or the clock.
public enum CodegenPipeline {
    /// One Swift source file to scan.
    public struct Input: Sendable, Hashable {
        /// The path diagnostics name.
        public var path: String
        /// The file's text.
        public var contents: String

        /// Creates an input.
        public init(path: String, contents: String) {
            self.path = path
            self.contents = contents
        }
    }

    /// What a run produced.
    public struct Output: Sendable, Hashable {
        /// The generated Swift file; `nil` when there are errors.
        public var source: String?
        /// The registry as JSON (see `rk-codegen --manifest`); `nil` when there are errors.
        public var manifestJSON: String?
        /// Errors and warnings, sorted by position.
        public var diagnostics: [Diagnostic]
        /// The number of functions generated.
        public var functionCount: Int

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Runs every stage over `inputs`.
    public static func run(_ inputs: [Input], options: CodegenOptions = CodegenOptions()) -> Output {
        let files = inputs.sorted { $0.path < $1.path }.map {
            DeclarationParser.parse(source: $0.contents, path: $0.path)
        }
        let (manifest, diagnostics) = ManifestBuilder.build(files)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(source: nil, manifestJSON: nil, diagnostics: diagnostics, functionCount: 0)
        }
        return Output(
            source: RegistryRenderer(options: options).render(manifest),
            manifestJSON: ManifestRenderer.render(manifest, moduleName: options.moduleName),
            diagnostics: diagnostics,
            functionCount: manifest.functions.count)
    }
}
