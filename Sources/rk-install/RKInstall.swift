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
        do {
            if parsed.has(InstallFlags.dryRun) {
                try installer.checkSources()
                for item in plan.items { print("would install \(item.destination)") }
            } else {
                try installer.run { print("installed \($0)") }
            }
        } catch {
            FileHandle.standardError.write(Data("rk-install: error: \(error)\n".utf8))
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
