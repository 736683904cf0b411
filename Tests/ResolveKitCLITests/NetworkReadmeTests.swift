import Foundation
import ResolveKitCLI
import Testing

/// The README's one table of network flags and variables is the table the tools parse, and every tool that talks
/// HTTP to a backend takes the whole group.
struct NetworkReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)) ?? ""
    }()

    /// The table's rows that start with a flag: its name and its variable (without a `=1`).
    static var documented: [(flag: String, variable: String)] {
        guard let section = readme.components(separatedBy: "## Behind your company's network").dropFirst().first
        else { return [] }
        return section.components(separatedBy: "\n## ")[0].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `--") else { return nil }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let flag = cells[0].dropFirst().prefix { $0 != " " && $0 != "`" }
            let variable = cells[1].dropFirst().prefix { $0 != "=" && $0 != "`" }
            return (String(flag), String(variable))
        }
    }

    @Test func theReadmeTableListsEveryNetworkFlagWithItsVariableInTheTablesOrder() {
        let visible = FlagGroup.network.flags.filter { !$0.isHidden }
        #expect(Self.documented.map(\.flag) == visible.map(\.name))
        #expect(Self.documented.map(\.variable) == visible.map { $0.variable ?? "-" })
    }

    @Test func everyNetworkFlagHasAVariableNamedInItsHelp() {
        for flag in FlagGroup.network.flags where !flag.isHidden {
            let variable = flag.variable ?? ""
            #expect(variable.hasPrefix("RESOLVEKIT_"), "\(flag.name)")
            #expect(flag.help.contains(variable), "\(flag.name)'s help does not name \(variable)")
        }
    }

    @Test func theSystemdUnitSetsOnlyVariablesTheToolsRead() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let unit = try String(
            contentsOf: root.appending(path: "Samples/rk-service/rk-service.service"), encoding: .utf8)
        let known = Set(FlagGroup.network.flags.compactMap(\.variable))
            .union(["RESOLVEKIT_BASE_URL", "RESOLVEKIT_API_KEY", "RESOLVEKIT_LOG_LEVEL"])
        let named = unit.matches(of: /RESOLVEKIT_[A-Z_]+/).map { String($0.output) }
        #expect(Set(named).isSuperset(of: known), "the unit shows every network variable")
        #expect(Set(named).isSubset(of: known), "\(Set(named).subtracting(known))")
    }
}
