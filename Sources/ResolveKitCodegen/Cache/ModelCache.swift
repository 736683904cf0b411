import Foundation

/// The declaration models of earlier runs, one per source file, and the last run's result, kept in a directory between
/// runs (`rk-codegen --cache DIR`).
///
/// A run re-scans only the files whose path, size or content hash changed. When every file's model is then what it
/// was for the cached result (an edit inside a function body or a comment changes no model), that result is the
/// output, and the unchanged models are never even decoded; otherwise types are resolved and everything rendered
/// over every file, as a clean run does.
///
/// The models live in one file, ``fileName``, and the result in another, ``CachedGeneration/fileName``, each written
/// whole (and atomically) when a run changed it. A file of another format version, a damaged file, or a damaged entry
/// (each carries its own checksum) is ignored: its files are scanned again, its result made again, never read wrongly.
package struct ModelCache: Sendable {
    /// The cache file's name inside the cache directory.
    package static let fileName = "models.rkcache"
    /// Bumped whenever the model or its encoding changes; a file of another version is ignored whole.
    static let formatVersion = 2
    static let magic = Array("RKCODEGEN-MODELS".utf8)

    /// What a cached model is valid for.
    struct Key: Sendable, Hashable {
        var path: String
        var size: Int
        var contentHash: UInt64

        init(path: String, size: Int, contentHash: UInt64) {
            self.path = path
            self.size = size
            self.contentHash = contentHash
        }

        init(_ input: CodegenPipeline.Input) {
            self.init(
                path: input.path, size: input.contents.utf8.count, contentHash: ContentHash.fnv1a64(input.contents))
        }
    }

    /// One file's model and its encoded form. An entry read from the cache file keeps that file's bytes and its
    /// range in them, and decodes its model only when asked.
    private struct Entry: Sendable {
        var key: Key
        /// The fingerprint of the encoded model: equal models, equal digests.
        var modelDigest: UInt64
        var storage: [UInt8]
        var range: Range<Int>
        var checksum: UInt64
        /// Where the encoded model starts in `storage`.
        var modelStart: Int
        var model: SourceFileModel?

        /// An entry for a freshly scanned model.
        init(key: Key, model: SourceFileModel) {
            var modelWriter = CacheWriter()
            model.encode(to: &modelWriter)
            let modelBytes = modelWriter.bytes
            var writer = CacheWriter()
            writer.write(key.path)
            writer.write(key.size)
            writer.write(key.contentHash)
            let digest = modelBytes.withUnsafeBytes { ContentHash.fnv1a64($0) }
            writer.write(digest)
            let modelStart = writer.bytes.count
            writer.write(raw: modelBytes)
            self.key = key
            self.modelDigest = digest
            self.storage = writer.bytes
            self.range = 0..<writer.bytes.count
            self.checksum = writer.bytes.withUnsafeBytes { ContentHash.fnv1a64($0) }
            self.modelStart = modelStart
            self.model = model
        }

        /// The entry encoded in `bytes[range]`, its model left encoded.
        init(_ bytes: [UInt8], range: Range<Int>, checksum: UInt64) throws(CacheReader.Malformed) {
            var reader = CacheReader(bytes, from: range.lowerBound, to: range.upperBound)
            key = Key(path: try reader.string(), size: try reader.int(), contentHash: try reader.uint64())
            modelDigest = try reader.uint64()
            storage = bytes
            self.range = range
            self.checksum = checksum
            modelStart = reader.offset
        }

        /// The model, decoded from the stored bytes if need be.
        func decodedModel() throws(CacheReader.Malformed) -> SourceFileModel {
            if let model { return model }
            var reader = CacheReader(storage, from: modelStart, to: range.upperBound)
            let model = try SourceFileModel(path: key.path, from: &reader)
            guard reader.isAtEnd else { throw CacheReader.Malformed() }
            return model
        }
    }

    private var entries: [String: Entry] = [:]
    /// The paths of the last ``update(with:)``, sorted.
    private var paths: [String] = []
    /// The result of the last run that resolved and rendered, and what it was made from.
    private(set) var generation: CachedGeneration?
    /// Whether the entries differ from what was read, so the file must be written.
    package private(set) var isChanged = false
    /// Whether ``generation`` differs from what was read.
    private var isGenerationChanged = false
    /// How many files the last run scanned (not found in the cache, changed, or with a damaged entry).
    package private(set) var scannedCount = 0
    /// How many files the last run took from the cache.
    package private(set) var reusedCount = 0
    /// Whether the last run's output was the cached result (no file's model had changed).
    package private(set) var isResultReused = false

    /// An empty cache.
    package init() {}

    /// The cache kept in `directory`; empty when there is none or it cannot be used.
    package init(directory: String) {
        let folder = URL(fileURLWithPath: directory)
        self.init(bytes: CacheFile.bytes(atPath: folder.appendingPathComponent(Self.fileName).path) ?? [])
        let result = CacheFile.bytes(atPath: folder.appendingPathComponent(CachedGeneration.fileName).path)
        generation = result.flatMap(CachedGeneration.init(fileBytes:))
    }

    /// Reads the cache file's entries; a damaged entry is skipped, a wrong header skips them all.
    init(bytes: [UInt8]) {
        var reader = CacheReader(bytes)
        guard bytes.starts(with: Self.magic) else { return }
        reader.offset = Self.magic.count
        guard (try? reader.int()) == Self.formatVersion else { return }
        while !reader.isAtEnd {
            guard let length = try? reader.count(), let checksum = try? reader.uint64(),
                reader.end - reader.offset >= length
            else { return }
            let range = reader.offset..<(reader.offset + length)
            reader.offset += length
            let stored = bytes.withUnsafeBytes { ContentHash.fnv1a64(UnsafeRawBufferPointer(rebasing: $0[range])) }
            guard stored == checksum, let entry = try? Entry(bytes, range: range, checksum: checksum) else { continue }
            entries[entry.key.path] = entry
        }
    }

    /// The cache file's bytes.
    var bytes: [UInt8] {
        var writer = CacheWriter()
        // Each entry's length and checksum take at most 10 bytes each: the file is built without regrowth copies.
        writer.reserveCapacity(Self.magic.count + 10 + entries.values.reduce(0) { $0 + 20 + $1.range.count })
        writer.write(raw: Self.magic)
        writer.write(Self.formatVersion)
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            writer.write(entry.range.count)
            writer.write(entry.checksum)
            writer.write(raw: entry.storage[entry.range])
        }
        return writer.bytes
    }

    /// Writes into `directory` (created if needed) what a run changed: the models, the result, or both.
    /// - Throws: the file system's error when the directory or a file cannot be written.
    package func write(directory: String) throws {
        guard isChanged || isGenerationChanged else { return }
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if isChanged { try CacheFile.write(bytes, to: folder.appendingPathComponent(Self.fileName)) }
        if isGenerationChanged, let generation {
            try CacheFile.write(generation.fileBytes, to: folder.appendingPathComponent(CachedGeneration.fileName))
        }
    }

    /// Brings the entries up to date with `inputs` (sorted by path), scanning on every core only the files not
    /// cached under their current key; afterwards the cache holds exactly these files.
    mutating func update(with inputs: [CodegenPipeline.Input]) {
        let cached = entries
        let results = ParallelMap.map(inputs) { input -> (entry: Entry, isReused: Bool) in
            let key = Key(input)
            if let entry = cached[input.path], entry.key == key { return (entry, true) }
            return (Entry(key: key, model: DeclarationParser.parse(source: input.contents, path: input.path)), false)
        }
        reusedCount = results.count { $0.isReused }
        scannedCount = results.count - reusedCount
        if scannedCount > 0 || entries.count != results.count { isChanged = true }
        entries = Dictionary(results.map { ($0.entry.key.path, $0.entry) }) { first, _ in first }
        paths = inputs.map(\.path)
    }

    /// What a run's result depends on: the options and every file's path and model, in path order.
    private func generationDigest(options: CodegenOptions) -> UInt64 {
        var writer = CacheWriter()
        writer.write(options.moduleName)
        writer.write(options.registryAccess.rawValue)
        for path in paths {
            writer.write(path)
            writer.write(entries[path]?.modelDigest ?? 0)
        }
        return writer.bytes.withUnsafeBytes { ContentHash.fnv1a64($0) }
    }

    /// The models of the files of the last ``update(with:)``, which was given `inputs`, in path order, decoded on every
    /// core; a file whose entry cannot be decoded is scanned again.
    mutating func models(of inputs: [CodegenPipeline.Input]) -> [SourceFileModel] {
        let cached = entries
        let results = ParallelMap.map(inputs) { input -> (model: SourceFileModel, isRescanned: Bool) in
            if let model = try? cached[input.path]?.decodedModel() { return (model, false) }
            return (DeclarationParser.parse(source: input.contents, path: input.path), true)
        }
        for (input, result) in zip(inputs, results) where result.isRescanned {
            entries[input.path] = Entry(key: Key(input), model: result.model)
            scannedCount += 1
            reusedCount -= 1
            isChanged = true
        }
        return results.map(\.model)
    }

    /// The cached result, when it was made from the current files' models and `options` (and holds the manifest
    /// if `withManifest`).
    mutating func cachedOutput(options: CodegenOptions, withManifest: Bool) -> CodegenPipeline.Output? {
        let digest = generationDigest(options: options)
        isResultReused = generation?.answers(digest: digest, withManifest: withManifest) == true
        return isResultReused ? generation?.output(moduleName: options.moduleName) : nil
    }

    /// Keeps `output`, made from the current files with `options`, as the cached result.
    mutating func keep(_ output: CodegenPipeline.Output, options: CodegenOptions, withManifest: Bool) {
        generation = CachedGeneration(
            digest: generationDigest(options: options), output: output, withManifest: withManifest)
        isGenerationChanged = true
    }
}
