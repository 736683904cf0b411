import Foundation
import Glibc
import ResolveKit
import ResolveKitCLI

/// `rk-service`: parse the command line, validate it against the environment, then run the service.
@main
enum RKService {
    static func main() async {
        let parsed = ServiceFlags.tool.parseOrExit(version: ResolveKitRuntime.version)
        let options = ServiceOptions.make(parsed)
        if let path = options.checkPolicy { exit(checkPolicy(path)) }
        let settings: ServiceSettings
        do {
            settings = try ServiceSettings.resolve(options, environment: ProcessInfo.processInfo.environment)
        } catch {
            usageFailure(error)
        }
        for warning in settings.policy.warnings { FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
        let code = await Service(settings: settings, environment: ProcessInfo.processInfo.environment).run()
        exit(code.rawValue)
    }

    /// Prints every problem of the policy at `path` (errors and warnings) to stderr and a summary to stdout;
    /// 0 when it has no error, 1 when it has, 64 when it cannot be read.
    static func checkPolicy(_ path: String) -> Int32 {
        let problems: [PolicyApprover.Problem]
        do {
            problems = try PolicyApprover.check(contentsOf: URL(fileURLWithPath: path), functions: ServiceSettings.servedFunctions)
        } catch {
            usageFailure(ServiceOptions.UsageError(message: "--check-policy: \(error.message)"))
        }
        for problem in problems { FileHandle.standardError.write(Data("\(problem)\n".utf8)) }
        let errors = problems.filter { $0.severity == .error }.count
        let warnings = problems.count - errors
        print("\(path): " + (errors == 0 ? "OK" : "\(errors) error\(errors == 1 ? "" : "s")")
            + (warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"))
        return (errors == 0 ? ExitCode.clean : ExitCode.policyHasErrors).rawValue
    }

    private static func usageFailure(_ error: ServiceOptions.UsageError) -> Never {
        ServiceFlags.tool.exit(with: error)
    }
}
