import Foundation
import PackagePlugin

/// Runs `rk-codegen` over the Swift sources of the target it is applied to and adds the generated
/// `ResolveKitAutoRegistry.swift` (conformances of every `// @ResolveKit` function plus the registry) to its build.
///
/// A target whose registry other targets use says so in a `.resolvekit.json` beside its Swift files (a dot-file,
/// so SwiftPM does not ask to declare it as a resource): `{"registryAccess": "public"}`.
@main
struct ResolveKitPlugin: BuildToolPlugin {
    /// The generated file's name; a file of this name in the target's own sources is not scanned.
    static let outputName = "ResolveKitAutoRegistry.swift"
    /// The per-target settings file.
    static let settingsName = ".resolvekit.json"

    /// A settings file the plugin cannot use.
    struct SettingsError: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates the one build command that regenerates the registry when a source file or the settings change.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let inputs = module.sourceFiles(withSuffix: "swift")
            .map(\.url)
            .filter { $0.lastPathComponent != Self.outputName }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: Self.outputName)
        // The cache keeps each file's scan and the last result between builds, so a build after one edit scans one
        // file, and answers at once when no declaration changed.
        let cache = context.pluginWorkDirectoryURL.appending(path: "cache")
        var arguments =
            inputs.map(\.path) + ["--output", output.path, "--module-name", target.name, "--cache", cache.path]
        var inputFiles = inputs
        if let settings = try Self.settingsFile(besides: inputs) {
            arguments += ["--access", try Self.registryAccess(in: settings)]
            inputFiles.append(settings)
        }
        return [
            .buildCommand(
                displayName: "Generating ResolveKit functions for \(target.name)",
                executable: try context.tool(named: "rk-codegen").url,
                arguments: arguments,
                inputFiles: inputFiles,
                outputFiles: [output]
            )
        ]
    }

    /// The settings file in a folder that holds the target's Swift files (its own folder, or a subfolder when all
    /// its sources are in subfolders); `nil` when there is none.
    static func settingsFile(besides sources: [URL]) throws -> URL? {
        let folders = Set(sources.map { $0.deletingLastPathComponent().standardizedFileURL.path })
        let found = folders.sorted().map { URL(fileURLWithPath: $0).appending(path: settingsName) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        guard found.count <= 1 else {
            throw SettingsError(description: "one \(settingsName) per target, found \(found.map(\.path).joined(separator: ", "))")
        }
        return found.first
    }

    /// `registryAccess` of a settings file: `public` or `internal` (the default).
    static func registryAccess(in file: URL) throws -> String {
        guard let data = FileManager.default.contents(atPath: file.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw SettingsError(description: "\(file.path): expected a JSON object such as {\"registryAccess\": \"public\"}")
        }
        let unknown = object.keys.filter { $0 != "registryAccess" }.sorted()
        guard unknown.isEmpty else {
            throw SettingsError(description: "\(file.path): unknown setting \(unknown.joined(separator: ", ")); the only one is registryAccess")
        }
        let access = object["registryAccess"] as? String ?? "internal"
        guard access == "public" || access == "internal" else {
            throw SettingsError(description: "\(file.path): registryAccess must be \"public\" or \"internal\", not \"\(access)\"")
        }
        return access
    }
}
