import Glibc
public import ResolveKitCore

/// Returns the host's name, kernel, OS, uptime, load averages, CPU count and memory use.
/// - Parameters:
///   - unit: Unit for memory figures: "bytes", "mib" or "gib".
// @ResolveKit(name: "get_host_status", timeout: 10, requiresApproval: false)
public struct GetHostStatus: ResolveKitFunction {
    let proc: ProcFileSystem
    let osReleasePaths: [String]

    /// Creates the function for the live host.
    public init() {
        self.init(proc: .live, osReleasePaths: ["/etc/os-release", "/usr/lib/os-release"])
    }

    /// Creates the function over another `/proc` and os-release files.
    init(proc: ProcFileSystem, osReleasePaths: [String]) {
        self.proc = proc
        self.osReleasePaths = osReleasePaths
    }

    /// Reads `/proc/uptime`, `/proc/loadavg`, `/proc/meminfo`, `uname` and os-release.
    /// - Throws: ``ResolveKitFunctionError/executionFailed(_:)`` when a `/proc` file cannot be read or parsed.
    public func perform(unit: MemoryUnit = .mib) async throws -> HostStatus {
        let uptime = try read("uptime", ProcParsers.uptimeSeconds)
        let load = try read("loadavg", ProcParsers.loadAverage)
        let memory = try read("meminfo") { ProcParsers.memoryStatus(ProcParsers.memInfo($0), unit: unit) }
        let names = Self.unameFields()
        return HostStatus(
            hostname: names.node, kernelRelease: names.release, architecture: names.machine,
            operatingSystem: operatingSystemName(), uptimeSeconds: uptime, uptime: ProcParsers.humanDuration(uptime),
            loadAverage: load, cpuCount: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), memory: memory)
    }

    private func read<Value>(_ name: String, _ parse: (String) -> Value?) throws -> Value {
        let text: String
        do {
            text = try proc.read(name)
        } catch {
            throw ResolveKitFunctionError.hostFailure(
                error, hint: "Is /proc mounted? This function needs Linux procfs.")
        }
        guard let value = parse(text) else {
            throw ResolveKitFunctionError.executionFailed(
                "Could not parse \(proc.root)/\(name); its format is not the one Linux documents in proc(5).")
        }
        return value
    }

    private func operatingSystemName() -> String? {
        for path in osReleasePaths {
            guard let text = try? HostFile.readText(atPath: path) else { continue }
            let fields = ProcParsers.osRelease(text)
            if let name = fields["PRETTY_NAME"] ?? fields["NAME"] { return name }
        }
        return nil
    }

    private static func unameFields() -> (node: String, release: String, machine: String) {
        var names = utsname()
        guard uname(&names) == 0 else { return ("unknown", "unknown", "unknown") }
        func text<Field>(_ field: Field) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        return (text(names.nodename), text(names.release), text(names.machine))
    }
}
