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

    /// What a run produced. Two outputs are equal when they hold the same files (the manifest compared as JSON) and
    /// the same diagnostics.
    public struct Output: Sendable, Hashable {
        /// The generated Swift file; `nil` when there are errors.
        public var source: String? {
            get { sourceUTF8.map { String(decoding: $0, as: UTF8.self) } }
            set { sourceUTF8 = newValue.map { Array($0.utf8)[...] } }
        }
        /// The generated file's UTF-8, rendered or from the cache: it is written as bytes, and made a `String` only
        /// when ``source`` is asked for (it can be megabytes).
        package var sourceUTF8: ArraySlice<UInt8>?
        /// The registry as JSON (see `rk-codegen --manifest`); `nil` when there are errors. Rendered on access.
        public var manifestJSON: String? {
            if let cachedManifestJSON { return String(decoding: cachedManifestJSON, as: UTF8.self) }
            return manifest.map { ManifestRenderer.render($0, moduleName: moduleName) }
        }
        /// Errors and warnings, sorted by position.
        public var diagnostics: [Diagnostic]
        /// The number of functions generated.
        public var functionCount: Int
        var manifest: CodegenManifest?
        var moduleName: String
        /// The manifest's JSON (UTF-8) when the output came from the cache.
        var cachedManifestJSON: ArraySlice<UInt8>? = nil

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

        /// Whether both hold the same files and diagnostics.
        public static func == (lhs: Output, rhs: Output) -> Bool {
            lhs.sourceUTF8 == rhs.sourceUTF8 && lhs.diagnostics == rhs.diagnostics
                && lhs.functionCount == rhs.functionCount
                && lhs.manifestJSON == rhs.manifestJSON
        }

        /// Hashes what ``==(_:_:)`` compares, but the manifest.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(sourceUTF8)
            hasher.combine(diagnostics)
            hasher.combine(functionCount)
        }
    }

    /// Runs every stage over `inputs`.
    public static func run(_ inputs: [Input], options: CodegenOptions = CodegenOptions()) -> Output {
        // Parsed in runs of files, a few per core; the models are freed run by run on every core once the output is
        // made.
        let runs = ParallelMap.map(ParallelMap.shares(of: inputs.sorted { $0.path < $1.path }, perCore: 4)) { run in
            run.map { DeclarationParser.parse(source: $0.contents, path: $0.path) }
        }
        let output = generate(runs.flatMap { $0 }, options: options)
        ParallelMap.release(runs)
        return output
    }

    /// Runs every stage over `inputs`, taking the model of each file whose path, size and content hash `cache` holds
    /// from it and scanning only the others; when every model is what it was for the cached result, that result is
    /// the output. `cache` is left holding exactly these files and this result. The output is the same as
    /// ``run(_:options:)``'s; `withManifest: false` leaves the manifest JSON out of a result it keeps.
    package static func run(
        _ inputs: [Input], options: CodegenOptions, cache: inout ModelCache, withManifest: Bool = true
    ) -> Output {
        let sorted = inputs.sorted { $0.path < $1.path }
        cache.update(with: sorted)
        if let output = cache.cachedOutput(options: options, withManifest: withManifest) { return output }
        let output = generate(cache.models(of: sorted), options: options)
        cache.keep(output, options: options, withManifest: withManifest)
        return output
    }

    /// Resolves types across `files` and renders: the stages that need every file.
    private static func generate(_ files: [SourceFileModel], options: CodegenOptions) -> Output {
        let (manifest, diagnostics) = ManifestBuilder.build(files)
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            return Output(
                sourceUTF8: nil, diagnostics: diagnostics, functionCount: 0, manifest: nil,
                moduleName: options.moduleName)
        }
        return Output(
            sourceUTF8: RegistryRenderer(options: options).render(manifest)[...], diagnostics: diagnostics,
            functionCount: manifest.functions.count, manifest: manifest, moduleName: options.moduleName)
    }
}
