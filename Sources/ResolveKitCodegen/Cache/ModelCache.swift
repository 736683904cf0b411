import Foundation

/// The declaration models of earlier runs, one per source file, kept in a directory between runs (`rk-codegen
/// --cache DIR`): a run after an edit re-scans only the files whose path, size or content hash changed, then
/// resolves types and renders over every file as a clean run does.
///
/// The entries live in one file, ``fileName``, written whole (and atomically) when a run changed any of them. A file
/// of another format version, a damaged file, or a damaged entry (each carries its own checksum) is ignored: its files
/// are scanned again, never read wrongly.
package struct ModelCache: Sendable {
    /// The cache file's name inside the cache directory.
    package static let fileName = "models.rkcache"
    /// Bumped whenever the model or its encoding changes; a file of another version is ignored whole.
    static let formatVersion = 1
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

    /// One file's model, with its encoded form when it was read from the file (written back as it was read).
    private struct Entry: Sendable {
        var key: Key
        var model: SourceFileModel
        var encoded: ArraySlice<UInt8>?
    }

    private var entries: [String: Entry] = [:]
    /// Whether the entries differ from what was read, so the file must be written.
    package private(set) var isChanged = false
    /// How many files the last run scanned (not found in the cache, or changed).
    package private(set) var scannedCount = 0
    /// How many files the last run took from the cache.
    package private(set) var reusedCount = 0

    /// An empty cache.
    package init() {}

    /// The cache kept in `directory`; empty when there is none or it cannot be used.
    package init(directory: String) {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName)
        self.init(bytes: (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? [])
    }

    /// Reads the entries of a cache file; damaged entries are skipped, a wrong header skips them all.
    init(bytes: [UInt8]) {
        var reader = CacheReader(bytes)
        guard bytes.starts(with: Self.magic) else { return }
        reader.offset = Self.magic.count
        guard (try? reader.int()) == Self.formatVersion else { return }
        while !reader.isAtEnd {
            guard let length = try? reader.count(), let checksum = try? reader.uint64(),
                reader.end - reader.offset >= length
            else { return }
            let start = reader.offset
            reader.offset += length
            let stored = bytes.withUnsafeBytes {
                ContentHash.fnv1a64(UnsafeRawBufferPointer(rebasing: $0[start..<start + length]))
            }
            guard stored == checksum, let (key, model) = try? Self.entry(bytes, from: start, to: start + length)
            else { continue }
            entries[key.path] = Entry(key: key, model: model, encoded: bytes[start..<(start + length)])
        }
    }

    private static func entry(
        _ bytes: [UInt8], from start: Int, to end: Int
    ) throws(CacheReader.Malformed) -> (Key, SourceFileModel) {
        var reader = CacheReader(bytes, from: start, to: end)
        let path = try reader.string()
        let key = Key(path: path, size: try reader.int(), contentHash: try reader.uint64())
        let model = try SourceFileModel(path: path, from: &reader)
        guard reader.isAtEnd else { throw CacheReader.Malformed() }
        return (key, model)
    }

    /// The cache file's bytes.
    var bytes: [UInt8] {
        var writer = CacheWriter()
        writer.write(raw: Self.magic)
        writer.write(Self.formatVersion)
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            let encoded = entry.encoded ?? Self.encode(entry.key, entry.model)[...]
            writer.write(encoded.count)
            writer.write(encoded.withUnsafeBytes { ContentHash.fnv1a64($0) })
            writer.write(raw: Array(encoded))
        }
        return writer.bytes
    }

    private static func encode(_ key: Key, _ model: SourceFileModel) -> [UInt8] {
        var writer = CacheWriter()
        writer.write(key.path)
        writer.write(key.size)
        writer.write(key.contentHash)
        model.encode(to: &writer)
        return writer.bytes
    }

    /// Writes the cache into `directory` (created if needed) when a run changed it.
    /// - Throws: the file system's error when the directory or file cannot be written.
    package func write(directory: String) throws {
        guard isChanged else { return }
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// The models of `inputs` (sorted by path), scanning on every core only those not cached under their current
    /// key; afterwards the cache holds exactly these files.
    mutating func models(of inputs: [CodegenPipeline.Input]) -> [SourceFileModel] {
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
        return results.map(\.entry.model)
    }
}
