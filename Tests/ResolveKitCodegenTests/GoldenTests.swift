import Foundation
import Testing

@testable import ResolveKitCodegen

/// Whole inputs in, whole files out, compared with the files under `Goldens/`. Run with `RK_UPDATE_GOLDENS=1` to
/// rewrite the goldens after an intended change, then review them with `git diff`.
struct GoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Goldens")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "ResolveKitCodegenFixtures")

    /// A golden case: where its inputs are, what they are called in diagnostics, and the options.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var inputs: URL
        var suffix: String
        var access: CodegenOptions.RegistryAccess
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "Fixtures", inputs: fixtures, suffix: ".swift", access: .internal),
        Case(name: "Edge", inputs: goldens.appending(path: "Edge"), suffix: ".swift.txt", access: .public),
    ]

    static func inputs(of golden: Case) throws -> [CodegenPipeline.Input] {
        try FileManager.default.contentsOfDirectory(atPath: golden.inputs.path).filter { $0.hasSuffix(golden.suffix) }
            .sorted().map { name in
                CodegenPipeline.Input(
                    path: name, contents: try String(contentsOf: golden.inputs.appending(path: name), encoding: .utf8))
            }
    }

    static func compare(_ actual: String, with file: URL) throws {
        if ProcessInfo.processInfo.environment["RK_UPDATE_GOLDENS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        if let diff = LineDiff.unified(
            old: expected, new: actual, oldName: file.lastPathComponent, newName: "generated")
        {
            Issue.record("\(file.lastPathComponent) differs (RK_UPDATE_GOLDENS=1 rewrites it):\n\(diff)")
        }
    }

    @Test("generated Swift and manifest match the golden files", arguments: cases)
    func golden(_ golden: Case) throws {
        let output = CodegenPipeline.run(
            try Self.inputs(of: golden), options: CodegenOptions(moduleName: golden.name, registryAccess: golden.access)
        )
        #expect(output.diagnostics == [])
        try Self.compare(try #require(output.source), with: Self.goldens.appending(path: "\(golden.name).swift.golden"))
        try Self.compare(
            try #require(output.manifestJSON), with: Self.goldens.appending(path: "\(golden.name).json.golden"))
    }

    @Test("output does not depend on the order of the inputs", arguments: cases)
    func orderIndependence(_ golden: Case) throws {
        let inputs = try Self.inputs(of: golden)
        let forward = CodegenPipeline.run(inputs)
        let backward = CodegenPipeline.run(inputs.reversed())
        #expect(forward == backward)
    }
}
