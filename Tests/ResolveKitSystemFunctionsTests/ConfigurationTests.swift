import Foundation
import ResolveKitCore
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

    @Test func hasDocumentedDefaultsAndLimitsWithinTheSchemas() {
        let defaults = SystemFunctionsConfiguration(allowedRoots: [])
        #expect(
            [defaults.maxLogLines, defaults.maxLogBytes, defaults.maxDirectoryEntries] as [Int] == [1000, 262_144, 500])
        let clamped = SystemFunctionsConfiguration(
            allowedRoots: [], maxLogLines: 0, maxLogBytes: -5, maxDirectoryEntries: 0)
        #expect([clamped.maxLogLines, clamped.maxLogBytes, clamped.maxDirectoryEntries] as [Int] == [1, 1, 1])
        // read_log_tail's schema offers at most 1000 lines.
        #expect(SystemFunctionsConfiguration(allowedRoots: [], maxLogLines: 5000).maxLogLines == 1000)
    }

    @Test func eachContextCarriesItsOwnRootsSoTwoRuntimesInOneProcessDiffer() async throws {
        let first = try TemporaryTree()
        try first.file("app.log", "first\n")
        let second = try TemporaryTree()
        try second.file("app.log", "second\n")
        let readLog = try #require(SystemFunctionsPack.functions.first { $0.resolveKitName == "read_log_tail" })
        let inFirst = ResolveKitFunctionContext.configured(SystemFunctionsConfiguration(allowedRoots: [first.path]))
        let inSecond = ResolveKitFunctionContext.configured(SystemFunctionsConfiguration(allowedRoots: [second.path]))
        let read = try await readLog.invoke(arguments: ["path": .string(first.url("app.log"))], context: inFirst)
        #expect(read["lines"] == ["first"])
        await #expect(throws: ResolveKitFunctionError.self) {
            try await readLog.invoke(arguments: ["path": .string(first.url("app.log"))], context: inSecond)
        }
    }

    @Test func withNothingSetTheRootsComeFromTheEnvironment() {
        let context = ResolveKitFunctionContext(sessionID: "s", requestID: "r")
        #expect(context[SystemFunctionsConfiguration.self] == .fromEnvironment(ProcessInfo.processInfo.environment))
        #expect(!context.dependencies.contains(SystemFunctionsConfiguration.self))
    }
}
