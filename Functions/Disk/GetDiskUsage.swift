import Glibc
public import ResolveKitCore

/// Returns total, used and available bytes for each mounted storage file system, or for the one holding a path.
/// - Parameters:
///   - path: A path whose file system to report; omit it to report every real mounted file system.
///   - includeTmpfs: Whether to include memory-backed tmpfs mounts in the full list.
// @ResolveKit(name: "get_disk_usage", timeout: 10, requiresApproval: false)
public struct GetDiskUsage: ResolveKitFunction {
    let proc: ProcFileSystem

    /// Creates the function for the live host.
    public init() {
        self.init(proc: .live)
    }

    /// Creates the function over another `/proc` (its `mounts` file).
    init(proc: ProcFileSystem) {
        self.proc = proc
    }

    /// Reads `/proc/mounts` and calls `statvfs` on each storage mount point, or on `path` only.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` when `path` is relative or does not exist;
    ///   ``ResolveKitFunctionError/executionFailed(_:)`` when the mount table or `path` cannot be read.
    public func perform(path: String? = nil, includeTmpfs: Bool = false) async throws -> DiskUsageReport {
        let entries: [MountEntry]
        do {
            entries = MountTable.parse(try proc.read("mounts"))
        } catch {
            throw ResolveKitFunctionError.hostFailure(
                error, hint: "Is /proc mounted? This function needs Linux procfs.")
        }
        guard let path else {
            let usages = MountTable.storage(entries, includeTmpfs: includeTmpfs).compactMap { entry in
                // Mounts this process may not inspect (or that vanished) are left out rather than failing the call.
                try? Self.usage(of: entry.mountPoint, entry: entry)
            }
            return DiskUsageReport(fileSystems: usages.filter { $0.totalBytes > 0 })
        }
        guard path.hasPrefix("/") else {
            throw ResolveKitFunctionError.invalidArguments(
                "Give an absolute path, such as /var/lib; \(path) is relative.")
        }
        let resolved: String
        do {
            resolved = try PathRules.realPath(path)
        } catch {
            guard error.code != ENOENT, error.code != ENOTDIR else {
                throw ResolveKitFunctionError.invalidArguments("\(path) does not exist; give an existing path.")
            }
            throw ResolveKitFunctionError.hostFailure(error, hint: "Give a path the host process may reach.")
        }
        let entry =
            MountTable.containing(resolved, in: entries)
            ?? MountEntry(device: "unknown", mountPoint: resolved, type: "unknown")
        do {
            return DiskUsageReport(fileSystems: [try Self.usage(of: resolved, entry: entry)])
        } catch {
            throw ResolveKitFunctionError.hostFailure(error, hint: "Give a path the host process may reach.")
        }
    }

    /// `statvfs(path)` as a ``FileSystemUsage`` labelled with `entry`.
    static func usage(of path: String, entry: MountEntry) throws(SystemCallError) -> FileSystemUsage {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw .current("statvfs", path) }
        let blockSize = UInt64(info.f_frsize == 0 ? info.f_bsize : info.f_frsize)
        let total = UInt64(info.f_blocks) * blockSize
        let free = UInt64(info.f_bfree) * blockSize
        let available = UInt64(info.f_bavail) * blockSize
        let used = total - min(free, total)
        let usable = used + available
        let percent = usable == 0 ? 0 : (Double(used) / Double(usable) * 10_000).rounded() / 100
        return FileSystemUsage(
            mountPoint: entry.mountPoint, device: entry.device, type: entry.type, totalBytes: total, freeBytes: free,
            availableBytes: available, usedBytes: used, usedPercent: percent)
    }
}
