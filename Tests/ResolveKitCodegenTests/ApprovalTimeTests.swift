import Foundation
import Testing

@testable import ResolveKitCodegen

/// The backend's timeout for a call includes the wait for a person's approval: a function that needs approval gets
/// a timeout a person can decide within, and a short one is warned about.
struct ApprovalTimeTests {
    static func function(_ arguments: String) -> String {
        """
        /// Reads the log.
        // @ResolveKit(name: "read_log"\(arguments))
        struct ReadLog: ResolveKitFunction { func perform() async throws {} }
        """
    }

    @Test(arguments: [
        ("", 120),
        (", timeout: 90", 90),
        (", requiresApproval: false", nil),
        (", timeout: 5, requiresApproval: false", 5),
    ] as [(String, Int?)])
    func aFunctionThatNeedsApprovalIsRegisteredWithTimeForAPerson(arguments: String, timeout: Int?) {
        let (manifest, diagnostics) = Snippet.manifest(["A.swift": Self.function(arguments)])
        #expect(diagnostics == [])
        #expect(manifest.functions.first?.timeoutSeconds == timeout)
    }

    static func warning(_ seconds: Int) -> String {
        "timeout \(seconds) is too short for a function that needs approval: the backend's timeout includes the wait "
            + "for a person's decision, so the prompt would show less than \(seconds) seconds; use 60 or more"
    }

    @Test(arguments: [
        (", timeout: 15", "A.swift:2:43: warning: \(warning(15))"),
        (", requiresApproval: true, timeout: 59", "A.swift:2:67: warning: \(warning(59))"),
    ])
    func aTimeoutTooShortForAPersonIsAWarningAtTheTimeoutAndTheFunctionIsStillMade(arguments: String, warning: String) {
        let (manifest, diagnostics) = Snippet.manifest(["A.swift": Self.function(arguments)])
        #expect(diagnostics.map(\.description) == [warning])
        #expect(manifest.functions.map(\.name) == ["read_log"])
    }

    @Test func theLinuxPacksFunctionsThatNeedApprovalLeaveAPersonTime() throws {
        let pack = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Functions")
        var sources: [String: String] = [:]
        let files = FileManager.default.enumerator(atPath: pack.path)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            sources[file] = try String(contentsOf: pack.appending(path: file), encoding: .utf8)
        }
        let (manifest, diagnostics) = Snippet.manifest(sources)
        #expect(diagnostics.filter { $0.severity == .warning } == [])
        let gated = manifest.functions.filter(\.requiresApproval)
        #expect(Set(gated.map(\.name)) == ["read_log_tail", "list_directory"])
        #expect(gated.allSatisfy { ($0.timeoutSeconds ?? 0) >= ApprovalTime.minimumSeconds })
    }
}
