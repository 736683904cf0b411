import Foundation
import Glibc
public import ResolveKitCore

/// Returns whether a systemd unit is active, inactive or failed, with its sub-state, enablement and main PID.
/// - Parameters:
///   - unit: The unit name, such as "nginx" or "cron.service"; letters, digits and @ . _ : - only.
// @ResolveKit(name: "get_service_status", timeout: 15, requiresApproval: false)
public struct GetServiceStatus: ResolveKitFunction {
    /// The properties asked of `systemctl show`; `ActiveState` is exactly what `systemctl is-active` prints.
    static let properties = [
        "Id", "LoadState", "ActiveState", "SubState", "UnitFileState", "Description", "MainPID",
        "ActiveEnterTimestamp",
    ]

    let runner: CommandRunner
    let systemdRuntimeDirectory: String
    let systemctlCandidates: [String]

    /// Creates the function for the live host.
    public init() {
        self.init(
            runner: .live, systemdRuntimeDirectory: "/run/systemd/system",
            systemctlCandidates: ["/usr/bin/systemctl", "/bin/systemctl"])
    }

    /// Creates the function with an injected command runner and paths.
    init(runner: CommandRunner, systemdRuntimeDirectory: String, systemctlCandidates: [String]) {
        self.runner = runner
        self.systemdRuntimeDirectory = systemdRuntimeDirectory
        self.systemctlCandidates = systemctlCandidates
    }

    /// Runs `systemctl show --property=… -- <unit>` (no shell) and reports its answer. A unit that does not exist is
    /// a result with `loadState` `not-found`, not an error.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` for a malformed unit name;
    ///   ``ResolveKitFunctionError/executionFailed(_:)`` when systemd is not running or `systemctl` fails.
    public func perform(unit: String) async throws -> ServiceStatus {
        let name = try UnitName.validated(unit)
        var info = stat()
        guard stat(systemdRuntimeDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ResolveKitFunctionError.executionFailed(
                "systemd is not running on this host (\(systemdRuntimeDirectory) does not exist), so unit status "
                    + "cannot be read; check the service with the host's own init system instead.")
        }
        guard let systemctl = systemctlCandidates.first(where: { access($0, X_OK) == 0 }) else {
            throw ResolveKitFunctionError.executionFailed(
                "systemctl was not found at \(systemctlCandidates.joined(separator: " or ")); install systemd's tools.")
        }
        let arguments = ["show", "--no-pager", "--property=" + Self.properties.joined(separator: ","), "--", name]
        let output: CommandOutput
        do {
            output = try await runner.run(systemctl, arguments, .seconds(10))
        } catch {
            throw ResolveKitFunctionError.executionFailed("Running systemctl failed: \(error).")
        }
        guard output.status == 0, let status = Self.parse(output.standardOutput, unit: name) else {
            let detail = output.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            throw ResolveKitFunctionError.executionFailed(
                "systemctl show \(name) exited with status \(output.status)"
                    + (detail.isEmpty ? "." : ": \(detail)") + " Check that the host process may talk to systemd.")
        }
        return status
    }

    /// The status in `systemctl show` output (`Key=value` lines); `nil` without an `ActiveState`.
    static func parse(_ text: String, unit: String) -> ServiceStatus? {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let value = String(line[line.index(after: equals)...])
            if !value.isEmpty { fields[String(line[..<equals])] = value }
        }
        guard let active = fields["ActiveState"] else { return nil }
        let pid = fields["MainPID"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return ServiceStatus(
            unit: fields["Id"] ?? unit, activeState: active, subState: fields["SubState"],
            loadState: fields["LoadState"], unitFileState: fields["UnitFileState"],
            description: fields["Description"], mainPID: pid, activeSince: fields["ActiveEnterTimestamp"])
    }
}
