import Foundation

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
                files.insert(path)
                continue
            }
            let enumerator = manager.enumerator(atPath: path)
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".swift") { files.insert((path as NSString).appendingPathComponent(relative)) }
            }
        }
        return files.filter { URL(fileURLWithPath: $0).standardizedFileURL.path != excluded }.sorted()
    }

    /// The text of a UTF-8 file.
    static func read(_ path: String) throws(Failure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `text` to `path` unless the file already holds exactly it, so builds stay incremental.
    static func writeIfChanged(_ text: String, to path: String) throws(Failure) {
        if let current = FileManager.default.contents(atPath: path), current == Data(text.utf8) { return }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw Failure(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
