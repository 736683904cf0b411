import Foundation
import ResolveKitCore

/// File access for the CLI: finding Swift files, reading them, writing only what changed.
enum SourceFiles {
    /// A file that could not be found, read or written; exit code 4.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `.swift` files of `paths` (directories searched recursively), sorted, without `excluded`.
    static func collect(_ paths: [String], excluding excluded: String) throws(Failure) -> [String] {
        var files: Set<String> = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(description: "no such file or directory: \(path)")
            }
            guard isDirectory.boolValue else {
                // A manifest or a schema given by mistake would be scanned as Swift and register nothing.
                guard path.hasSuffix(".swift") else {
                    throw Failure(description: "\(path) is not a .swift file: give Swift sources, or folders of them")
                }
                files.insert(path)
                continue
            }
            walk(path) { if $0.hasSuffix(".swift") { files.insert($0) } }
        }
        // Standardizing every path costs more than finding the files; only a path with the output's name can be it.
        let excludedName = (excluded as NSString).lastPathComponent
        return files.filter {
            ($0 as NSString).lastPathComponent != excludedName
                || URL(fileURLWithPath: $0).standardizedFileURL.path != excluded
        }.sorted()
    }

    /// The text of a UTF-8 file.
    static func read(_ path: String) throws(Failure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `bytes` to `path` unless the file already holds exactly them, so builds stay incremental.
    static func writeIfChanged(_ bytes: ArraySlice<UInt8>, to path: String) throws(Failure) {
        if let current = FileManager.default.contents(atPath: path), holds(current, bytes) { return }
        do throws(AtomicFileWrite.Failure) {
            try AtomicFileWrite.write(Array(bytes), to: path)
        } catch {
            throw Failure(description: "cannot write \(error.path): \(error.reason)")
        }
    }

    /// Whether `data` holds exactly `bytes`, compared in place (the generated file can be megabytes).
    private static func holds(_ data: Data, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard data.count == bytes.count else { return false }
        return data.withUnsafeBytes { stored in
            bytes.withUnsafeBytes { wanted in
                wanted.isEmpty || memcmp(stored.baseAddress!, wanted.baseAddress!, wanted.count) == 0
            }
        }
    }

    /// Calls `body` with the path of every entry under `directory`, descending into subdirectories (not into links
    /// to directories). `readdir` directly: Foundation's directory enumerator costs more than the rest of a run
    /// that finds nothing to regenerate.
    private static func walk(_ directory: String, _ body: (String) -> Void) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        while let entry = readdir(stream) {
            guard !DirectoryEntryName.isDotOrDotDot(entry) else { continue }
            let name = DirectoryEntryName.of(entry)
            let path = prefix + name
            var isDirectory = entry.pointee.d_type == DT_DIR
            if entry.pointee.d_type == DT_UNKNOWN {
                var status = stat()
                isDirectory = lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            }
            if isDirectory { walk(path, body) } else { body(path) }
        }
    }
}
