import Foundation
import ResolveKitTelemetry
import Testing

/// The README's "Operating it" section lists what a runtime's registry really holds.
struct ReadmeCatalogTests {
    struct Row: Hashable, CustomStringConvertible {
        var name: String
        var type: String
        var labels: [String]
        var description: String { "\(name) \(type) \(labels)" }
    }

    static func readmeRows() throws -> [Row] {
        let readme = try String(contentsOf: ProgramRunner.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "### Metrics") else { return [] }
        var rows: [Row] = []
        for line in lines[start...].dropFirst() {
            if line.isEmpty, !rows.isEmpty { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 6, cells[1].hasPrefix("`") else { continue }
            let labels = cells[3].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
            }
            rows.append(
                Row(
                    name: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), type: cells[2],
                    labels: labels))
        }
        return rows
    }

    @Test func theMetricsTableListsEveryFamilyWithItsTypeAndLabels() throws {
        let families = try CatalogNames.families().map { family in
            Row(
                name: family.descriptor.name + (family.kind == .counter ? "_total" : ""), type: family.kind.rawValue,
                labels: family.labelNames)
        }
        let rows = try Self.readmeRows()
        #expect(rows.count == families.count)
        #expect(Set(rows).subtracting(families).isEmpty, "in the README only: \(Set(rows).subtracting(families))")
        #expect(Set(families).subtracting(rows).isEmpty, "missing from the README: \(Set(families).subtracting(rows))")
    }
}
