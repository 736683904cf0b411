import Foundation
import Glibc
import ResolveKitCLI
import ResolveKitCore

/// `rk-install`: installs the tools built beside it under a prefix, with their manual pages and completions.
@main
enum RKInstall {
    static func main() {
        let tool = InstallFlags.tool
        let parsed = tool.parseOrExit(version: ResolveKitVersion.current)
        let prefix = parsed.value(InstallFlags.prefix) ?? InstallFlags.defaultPrefix
        let plan = InstallPlan(prefix: prefix, builtFolder: builtFolder)
        let installer = Installer(plan: plan)
        let dryRun = parsed.has(InstallFlags.dryRun)
        do {
            if parsed.has(InstallFlags.uninstall) {
                try InstalledFiles.uninstall(plan, dryRun: dryRun) { print($0) }
            } else if dryRun {
                try installer.dryRun { print($0) }
            } else {
                try installer.run { print($0) }
            }
        } catch {
            for line in error.description.split(separator: "\n") {
                FileHandle.standardError.write(Data("rk-install: error: \(line)\n".utf8))
            }
            exit(1)
        }
        exit(0)
    }

    /// The folder this executable is in, where `swift build` put the other tools.
    static var builtFolder: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }
}
