/// The result of the last run that resolved types and rendered, kept in the cache with the digest of what it was
/// made from (the options and every file's path and model): when the next run's files have the same models, this
/// is its output.
struct CachedGeneration: Sendable, Hashable {
    /// The result file's name inside the cache directory.
    static let fileName = "result.rkcache"
    static let magic = Array("RKCODEGEN-RESULT".utf8)

    /// The digest of the options and models the result was made from.
    var digest: UInt64
    /// The generated file's UTF-8; `nil` when there were errors.
    var source: ArraySlice<UInt8>?
    /// The manifest's JSON as UTF-8, decoded only by a run that asks for it; `nil` when the run that made it was
    /// not asked for the manifest (or had errors).
    var manifestJSON: ArraySlice<UInt8>?
    var diagnostics: [Diagnostic]
    var functionCount: Int

    /// Keeps `output`, made from files whose digest is `digest`; the manifest is rendered only if `withManifest`.
    init(digest: UInt64, output: CodegenPipeline.Output, withManifest: Bool) {
        self.digest = digest
        source = output.sourceUTF8
        manifestJSON = withManifest ? output.manifestJSON.map { Array($0.utf8)[...] } : nil
        diagnostics = output.diagnostics
        functionCount = output.functionCount
    }

    /// Whether this result can stand for a run whose files have `digest`, and which needs the manifest or not.
    func answers(digest: UInt64, withManifest: Bool) -> Bool {
        self.digest == digest && (!withManifest || manifestJSON != nil || source == nil)
    }

    /// The result as the pipeline's output.
    func output(moduleName: String) -> CodegenPipeline.Output {
        CodegenPipeline.Output(
            sourceUTF8: source, diagnostics: diagnostics, functionCount: functionCount,
            manifest: nil, moduleName: moduleName, cachedManifestJSON: manifestJSON)
    }

    /// The result file's bytes: magic, the cache's format version, the record's length and checksum, the record.
    var fileBytes: [UInt8] {
        let record = encoded
        var writer = CacheWriter()
        writer.write(raw: Self.magic)
        writer.write(ModelCache.formatVersion)
        writer.write(record.count)
        writer.write(record.withUnsafeBytes { ContentHash.fnv1a64($0) })
        writer.write(raw: record)
        return writer.bytes
    }

    /// The result in a result file's bytes; `nil` when they are damaged or of another format version.
    init?(fileBytes bytes: [UInt8]) {
        guard bytes.starts(with: Self.magic) else { return nil }
        var reader = CacheReader(bytes, from: Self.magic.count)
        guard (try? reader.int()) == ModelCache.formatVersion, let length = try? reader.count(),
            let checksum = try? reader.uint64(), reader.end - reader.offset == length
        else { return nil }
        let range = reader.offset..<reader.end
        guard bytes.withUnsafeBytes({ ContentHash.fnv1a64(UnsafeRawBufferPointer(rebasing: $0[range])) }) == checksum
        else { return nil }
        try? self.init(bytes, range: range)
    }

    private var encoded: [UInt8] {
        var writer = CacheWriter()
        writer.write(digest)
        writer.write(source) { $0.write(bytes: $1) }
        writer.write(manifestJSON) { $0.write(bytes: $1) }
        writer.write(diagnostics) { $1.encode(to: &$0) }
        writer.write(functionCount)
        return writer.bytes
    }

    private init(_ bytes: [UInt8], range: Range<Int>) throws(CacheReader.Malformed) {
        var reader = CacheReader(bytes, from: range.lowerBound, to: range.upperBound)
        digest = try reader.uint64()
        source = try reader.optional { (reader) throws(CacheReader.Malformed) in try reader.byteSlice() }
        manifestJSON = try reader.optional { (reader) throws(CacheReader.Malformed) in try reader.byteSlice() }
        diagnostics = try reader.array { (reader) throws(CacheReader.Malformed) in try Diagnostic(from: &reader) }
        functionCount = try reader.int()
        guard reader.isAtEnd else { throw CacheReader.Malformed() }
    }
}
