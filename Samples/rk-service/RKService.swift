import Foundation
import Glibc
import ResolveKit

/// `rk-service`: parse the command line, validate it against the environment, then run the service.
@main
enum RKService {
    static func main() async {
        let options: ServiceOptions
        do {
            options = try ServiceOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            usageFailure(error)
        }
        if options.showHelp {
            FileHandle.standardOutput.write(Data((ServiceOptions.usage + "\n").utf8))
            exit(ExitCode.clean.rawValue)
        }
        if options.showVersion {
            FileHandle.standardOutput.write(Data("rk-service \(ResolveKitRuntime.version)\n".utf8))
            exit(ExitCode.clean.rawValue)
        }
        let settings: ServiceSettings
        do {
            settings = try ServiceSettings.resolve(options, environment: ProcessInfo.processInfo.environment)
        } catch {
            usageFailure(error)
        }
        let code = await Service(settings: settings, environment: ProcessInfo.processInfo.environment).run()
        exit(code.rawValue)
    }

    private static func usageFailure(_ error: ServiceOptions.UsageError) -> Never {
        FileHandle.standardError.write(Data("rk-service: error: \(error.message)\nSee rk-service --help.\n".utf8))
        exit(ExitCode.usage.rawValue)
    }
}
