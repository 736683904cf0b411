import Foundation
import PackagePlugin

/// Runs `rk-codegen` over the Swift sources of the target it is applied to and adds the generated
/// `ResolveKitAutoRegistry.swift` (conformances of every `// @ResolveKit` function plus the registry) to its build.
@main
struct ResolveKitPlugin: BuildToolPlugin {
    /// The generated file's name; a file of this name in the target's own sources is not scanned.
    static let outputName = "ResolveKitAutoRegistry.swift"

    /// Creates the one build command that regenerates the registry when a source file changes.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let inputs = module.sourceFiles(withSuffix: "swift")
            .map(\.url)
            .filter { $0.lastPathComponent != Self.outputName }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: Self.outputName)
        let arguments = inputs.map(\.path) + ["--output", output.path, "--module-name", target.name]
        return [
            .buildCommand(
                displayName: "Generating ResolveKit functions for \(target.name)",
                executable: try context.tool(named: "rk-codegen").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
