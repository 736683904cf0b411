import Glibc
import ResolveKitCore

/// Where `--samples DIR` puts every sample behind a workload's percentiles, one tab-separated file per figure
/// (`<workload>-<figure>.tsv`, a header line first): to find the single calls a p99 is made of, or the rounds a
/// whole series of calls was late in, without a temporary build.
struct SampleFiles: Sendable {
    let directory: String

    /// Makes the directory (and its parents) when missing.
    /// - Throws: ``BenchFailure`` naming the flag and the path when it cannot.
    init(directory: String) throws(BenchFailure) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o755) != 0, errno != EEXIST else { continue }
            throw BenchFailure(message: "--samples \(directory): cannot create \(path): \(Self.reason(errno))")
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw BenchFailure(message: "--samples \(directory): not a directory")
        }
        self.directory = directory
    }

    /// Writes `<directory>/<name>.tsv`: `columns`, then one line per row.
    /// - Throws: ``BenchFailure`` naming the file when it cannot be written.
    func write(_ name: String, columns: [String], rows: [[String]]) throws(BenchFailure) {
        let path = directory + "/" + name + ".tsv"
        var text = columns.joined(separator: "\t") + "\n"
        for row in rows { text += row.joined(separator: "\t") + "\n" }
        let bytes = Array(text.utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BenchFailure(message: "--samples: cannot write \(path): \(Self.reason(errno))")
        }
        defer { close(descriptor) }
        if let failure = FileDescriptorWrite.all(bytes, to: descriptor) {
            throw BenchFailure(message: "--samples: cannot write \(path): \(Self.reason(failure))")
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
