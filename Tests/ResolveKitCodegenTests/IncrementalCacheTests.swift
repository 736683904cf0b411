import Foundation
import Testing

@testable import ResolveKitCodegen

/// `rk-codegen --cache DIR`: a run that takes the models of unchanged files from the cache generates exactly what a
/// clean run generates, after every kind of edit, and a damaged cache is only a slower run.
struct IncrementalCacheTests {
    /// One edit of the source folder: files to write (a `nil` text deletes the file), how many files the
    /// incremental run must scan again, and whether it may answer with the last result (no model changed).
    struct Edit: CustomTestStringConvertible {
        var name: String
        var files: [String: String?]
        var scanned: Int
        var reusesResult = false
        var testDescription: String { name }
    }

    static func function(_ name: String, type: String, parameter: String = "mode") -> String {
        """
        /// Runs \(name).
        // @ResolveKit(name: "\(name)")
        struct \(type): ResolveKitFunction {
            func perform(\(parameter): Mode, level: Level = .low, note: Note?) async throws -> String { "" }
        }

        """
    }

    static let start: [String: String] = [
        "Types.swift": """
        /// How to run.
        enum Mode: String, Codable { case fast, slow }

        /// A level.
        enum Level: Int, Codable { case low = 1, high }

        """,
        "Note.swift": """
        /// A note.
        struct Note: Codable {
            /// The text.
            var text: String
        }

        """,
        "Run.swift": function("run_job", type: "RunJob"),
        "Stop.swift": function("stop_job", type: "StopJob"),
    ]

    /// Each edit applies to the folder as the previous one left it.
    static let edits: [Edit] = [
        Edit(name: "nothing changed", files: [:], scanned: 0, reusesResult: true),
        Edit(
            name: "a function's body changes",
            files: [
                "Run.swift": function("run_job", type: "RunJob").replacingOccurrences(
                    of: "{ \"\" }", with: "{ \"ran\" }")
            ],
            scanned: 1, reusesResult: true),
        Edit(
            name: "a comment is added at the end of a file",
            files: ["Stop.swift": function("stop_job", type: "StopJob") + "// Stops the job.\n"], scanned: 1,
            reusesResult: true),
        Edit(
            name: "a line above every declaration moves them all",
            files: ["Stop.swift": "\n" + function("stop_job", type: "StopJob") + "// Stops the job.\n"], scanned: 1),
        Edit(
            name: "a type used by functions in other files gains a case",
            files: ["Types.swift": start["Types.swift"]!.replacingOccurrences(of: "slow }", with: "slow, careful }")],
            scanned: 1),
        Edit(
            name: "a struct used in another file gains a documented property",
            files: [
                "Note.swift": start["Note.swift"]!.replacingOccurrences(
                    of: "var text: String", with: "var text: String\n    /// - Minimum: 1\n    var pages: Int")
            ],
            scanned: 1),
        Edit(name: "a file is added", files: ["Pause.swift": function("pause_job", type: "PauseJob")], scanned: 1),
        Edit(name: "a function is renamed", files: ["Run.swift": function("start_job", type: "RunJob")], scanned: 1),
        Edit(name: "a file is deleted", files: ["Stop.swift": nil], scanned: 0),
        Edit(
            name: "an edit that breaks a type used elsewhere is reported as a clean run reports it",
            files: ["Types.swift": "/// How to run.\nenum Mode { case fast(Int) }\n"], scanned: 1),
        Edit(name: "the type is mended", files: ["Types.swift": start["Types.swift"]!], scanned: 1),
        Edit(
            name: "a file is replaced by one of the same size",
            files: ["Pause.swift": function("pause_jib", type: "PauseJob")], scanned: 1),
    ]

    static func inputs(_ files: [String: String]) -> [CodegenPipeline.Input] {
        files.map { CodegenPipeline.Input(path: "Sources/\($0.key)", contents: $0.value) }
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appending(path: "rk-codegen-cache-\(UUID().uuidString)").path
    }

    /// A clean run and a run through the cache kept in `directory`, which is updated as rk-codegen updates it.
    static func bothRuns(
        _ files: [String: String], cacheDirectory: String
    ) throws -> (clean: CodegenPipeline.Output, incremental: CodegenPipeline.Output, cache: ModelCache) {
        let clean = CodegenPipeline.run(inputs(files), options: CodegenOptions(moduleName: "Jobs"))
        var cache = ModelCache(directory: cacheDirectory)
        let incremental = CodegenPipeline.run(
            inputs(files), options: CodegenOptions(moduleName: "Jobs"), cache: &cache)
        try cache.write(directory: cacheDirectory)
        return (clean, incremental, cache)
    }

    @Test func anIncrementalRunGeneratesWhatACleanRunGeneratesAfterEveryEdit() throws {
        let cacheDirectory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        var files = Self.start
        let first = try Self.bothRuns(files, cacheDirectory: cacheDirectory)
        #expect(first.cache.scannedCount == files.count)
        #expect(first.incremental == first.clean)
        for edit in Self.edits {
            for (name, text) in edit.files { files[name] = text }
            let (clean, incremental, cache) = try Self.bothRuns(files, cacheDirectory: cacheDirectory)
            #expect(incremental.source == clean.source, "\(edit.name)")
            #expect(incremental.manifestJSON == clean.manifestJSON, "\(edit.name)")
            #expect(incremental.diagnostics == clean.diagnostics, "\(edit.name)")
            #expect(cache.scannedCount == edit.scanned, "\(edit.name)")
            #expect(cache.reusedCount == files.count - edit.scanned, "\(edit.name)")
            #expect(cache.isResultReused == edit.reusesResult, "\(edit.name)")
        }
    }

    @Test func aRunThatNeedsTheManifestMakesItWhenTheCachedResultHasNone() throws {
        let cacheDirectory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        let options = CodegenOptions(moduleName: "Jobs")
        let clean = CodegenPipeline.run(Self.inputs(Self.start), options: options)
        var cache = ModelCache(directory: cacheDirectory)
        _ = CodegenPipeline.run(Self.inputs(Self.start), options: options, cache: &cache, withManifest: false)
        try cache.write(directory: cacheDirectory)
        var next = ModelCache(directory: cacheDirectory)
        let withManifest = CodegenPipeline.run(Self.inputs(Self.start), options: options, cache: &next)
        #expect(!next.isResultReused)
        #expect(withManifest.manifestJSON == clean.manifestJSON)
        try next.write(directory: cacheDirectory)
        var last = ModelCache(directory: cacheDirectory)
        let reused = CodegenPipeline.run(Self.inputs(Self.start), options: options, cache: &last)
        #expect(last.isResultReused)
        #expect(reused.manifestJSON == clean.manifestJSON)
    }

    @Test func aResultMadeWithOtherOptionsIsNotReused() throws {
        let cacheDirectory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        _ = try Self.bothRuns(Self.start, cacheDirectory: cacheDirectory)
        let options = CodegenOptions(moduleName: "Jobs", registryAccess: .public)
        var cache = ModelCache(directory: cacheDirectory)
        let incremental = CodegenPipeline.run(Self.inputs(Self.start), options: options, cache: &cache)
        #expect(!cache.isResultReused)
        #expect(incremental == CodegenPipeline.run(Self.inputs(Self.start), options: options))
    }

    @Test func rkCodegenWithACacheWritesTheSameFilesAsWithoutAfterEveryEdit() async throws {
        let root = try CommandLineTests.directory(Self.start.mapKeys { "Sources/\($0)" })
        defer { try? FileManager.default.removeItem(at: root) }
        func generate(_ name: String, cache: Bool) async throws -> (Data, Data) {
            let arguments =
                ["Sources", "-o", "\(name).swift", "--manifest", "\(name).json", "--module-name", "Jobs"]
                + (cache ? ["--cache", ".cache"] : [])
            let run = try await CommandLineTests.run(arguments, in: root)
            #expect(run.code == 0 || run.code == 1, "\(run.stderr)")
            let output = (try? Data(contentsOf: root.appending(path: "\(name).swift"))) ?? Data()
            let manifest = (try? Data(contentsOf: root.appending(path: "\(name).json"))) ?? Data()
            return (output, manifest)
        }
        let first = (clean: try await generate("Clean", cache: false), incremental: try await generate("Incremental", cache: true))
        #expect(first.clean == first.incremental)
        for edit in Self.edits {
            for (name, text) in edit.files {
                let url = root.appending(path: "Sources/\(name)")
                if let text {
                    try text.write(to: url, atomically: true, encoding: .utf8)
                } else {
                    try FileManager.default.removeItem(at: url)
                }
            }
            let clean = try await generate("Clean", cache: false)
            let incremental = try await generate("Incremental", cache: true)
            #expect(clean.0 == incremental.0, "\(edit.name)")
            #expect(clean.1 == incremental.1, "\(edit.name)")
        }
        #expect(FileManager.default.fileExists(atPath: root.appending(path: ".cache/\(ModelCache.fileName)").path))
    }

    @Test func theGeneratedFileFollowsAnEditToATypeInAnotherFile() throws {
        let cacheDirectory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        var files = Self.start
        _ = try Self.bothRuns(files, cacheDirectory: cacheDirectory)
        files["Types.swift"] = Self.edits.first { $0.name.hasPrefix("a type used by") }!.files["Types.swift"]!
        let (_, incremental, _) = try Self.bothRuns(files, cacheDirectory: cacheDirectory)
        #expect(
            incremental.source?.contains(#".array([.string("fast"), .string("slow"), .string("careful")])"#) == true)
    }

    /// Ways a cache file can be unusable.
    static let damages: [(String, @Sendable ([UInt8]) -> [UInt8])] = [
        ("garbage", { _ in Array("not a cache".utf8) }),
        ("empty", { _ in [] }),
        ("truncated in the middle", { Array($0.prefix($0.count / 2)) }),
        (
            "a flipped byte in every entry",
            { bytes in
                var damaged = bytes
                for index in stride(from: ModelCache.magic.count + 8, to: damaged.count, by: 97) {
                    damaged[index] ^= 0x5A
                }
                return damaged
            }
        ),
        (
            "another format version",
            { bytes in
                var damaged = bytes
                damaged[ModelCache.magic.count] = UInt8(ModelCache.formatVersion + 1)
                return damaged
            }
        ),
        (
            "entries with valid checksums but nonsense inside",
            { bytes in
                var writer = CacheWriter()
                writer.write(raw: ModelCache.magic)
                writer.write(ModelCache.formatVersion)
                for payload in [[UInt8](repeating: 0xFF, count: 40), Array("Sources/Run.swift".utf8), [3, 1, 2]] {
                    writer.write(payload.count)
                    writer.write(payload.withUnsafeBytes { ContentHash.fnv1a64($0) })
                    writer.write(raw: payload)
                }
                return writer.bytes
            }
        ),
    ]

    /// A damaged models file costs a scan of every file; a damaged result file, resolving and rendering again.
    @Test(arguments: [ModelCache.fileName, CachedGeneration.fileName], damages.indices)
    func aDamagedCacheIsIgnoredAndTheOutputStaysRight(fileName: String, damage: Int) throws {
        let cacheDirectory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        _ = try Self.bothRuns(Self.start, cacheDirectory: cacheDirectory)
        let file = URL(fileURLWithPath: cacheDirectory).appending(path: fileName)
        let bytes = [UInt8](try Data(contentsOf: file))
        try Data(Self.damages[damage].1(bytes)).write(to: file)
        let (clean, incremental, cache) = try Self.bothRuns(Self.start, cacheDirectory: cacheDirectory)
        let name = "\(fileName): \(Self.damages[damage].0)"
        #expect(incremental == clean, "\(name)")
        // Models scanned again are the same models, so an intact result still answers for them.
        let (scanned, reused) = (cache.scannedCount, cache.isResultReused)
        if fileName == ModelCache.fileName { #expect(scanned > 0, "\(name)") } else { #expect(!reused, "\(name)") }
        let (_, repaired, healed) = try Self.bothRuns(Self.start, cacheDirectory: cacheDirectory)
        #expect(repaired == clean)
        let (rescanned, answered) = (healed.scannedCount, healed.isResultReused)
        #expect(rescanned == 0 && answered, "the next run finds the cache written again")
    }

    @Test func theCacheReadsBackTheModelsItWrote() throws {
        let inputs = Self.inputs(Self.start).sorted { $0.path < $1.path }
        var cache = ModelCache()
        cache.update(with: inputs)
        let models = cache.models(of: inputs)
        var reread = ModelCache(bytes: cache.bytes)
        reread.update(with: inputs)
        #expect(reread.models(of: inputs) == models)
        #expect(reread.reusedCount == inputs.count)
    }

    @Test func theContentHashIsFNV1a64OverWordsAndBytes() {
        #expect(ContentHash.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(ContentHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ContentHash.fnv1a64("abcdefgh") != ContentHash.fnv1a64("abcdefgi"))
        #expect(ContentHash.fnv1a64("abcdefgh12") != ContentHash.fnv1a64("abcdefgh13"))
    }
}

extension Dictionary {
    fileprivate func mapKeys(_ transform: (Key) -> Key) -> [Key: Value] {
        Dictionary(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
