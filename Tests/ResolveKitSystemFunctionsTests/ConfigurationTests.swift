import Foundation
import Testing

@testable import ResolveKitSystemFunctions

@Suite(.timeLimit(.minutes(1)))
struct ConfigurationTests {
    @Test(arguments: [
        (["RK_ALLOWED_ROOTS": "/var/log:/srv/app"], ["/var/log", "/srv/app"]),
        (["RK_ALLOWED_ROOTS": "/var/log::relative:/x/"], ["/var/log", "/x/"]),
        (["RK_ALLOWED_ROOTS": ""], []),
        ([:], []),
    ])
    func readsAllowedRootsFromTheEnvironment(environment: [String: String], roots: [String]) {
        #expect(SystemFunctionsConfiguration.fromEnvironment(environment).allowedRoots == roots)
    }

    @Test func hasDocumentedDefaultsAndNoLimitBelowOne() {
        let defaults = SystemFunctionsConfiguration(allowedRoots: [])
        #expect(
            [defaults.maxLogLines, defaults.maxLogBytes, defaults.maxDirectoryEntries] as [Int] == [1000, 262_144, 500])
        let clamped = SystemFunctionsConfiguration(
            allowedRoots: [], maxLogLines: 0, maxLogBytes: -5, maxDirectoryEntries: 0)
        #expect([clamped.maxLogLines, clamped.maxLogBytes, clamped.maxDirectoryEntries] as [Int] == [1, 1, 1])
    }

    /// The only test that touches the process-wide configuration; every other test injects its own.
    @Test func configuresTheProcessWideRootsUsedByDefaultFunctions() async throws {
        let tree = try TemporaryTree()
        try tree.file("app.log", "configured\n")
        SystemFunctions.configure(allowedRoots: [tree.path])
        defer { SystemFunctions.resetToEnvironment() }
        #expect(SystemFunctions.allowedRoots == [tree.path])
        #expect(try await ReadLogTail().perform(path: tree.url("app.log")).lines == ["configured"])
        #expect(try await ListDirectory().perform(path: tree.path).entries.map(\.name) == ["app.log"])
        SystemFunctions.configure(SystemFunctionsConfiguration(allowedRoots: [tree.path], maxDirectoryEntries: 7))
        #expect(SystemFunctions.configuration.maxDirectoryEntries == 7)
        SystemFunctions.resetToEnvironment()
        #expect(SystemFunctions.configuration == .fromEnvironment(ProcessInfo.processInfo.environment))
    }
}
