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

    /// The README's meaning cell of each metric, by name.
    static func readmeMeanings() throws -> [String: String] {
        let readme = try String(contentsOf: ProgramRunner.packageRoot.appending(path: "README.md"), encoding: .utf8)
        var meanings: [String: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count == 6 else { continue }
            meanings[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = String(cells[4])
        }
        return meanings
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

    /// Every value a label of fixed values can take, by the metric whose README row must name it.
    static let labelValues: [(metric: String, values: [String])] = [
        ("resolvekit_tool_calls_total", ResolveKitMetrics.ToolOutcome.allCases.map(\.rawValue)),
        ("resolvekit_tool_calls_total", ResolveKitMetrics.Decider.allCases.map(\.rawValue)),
        ("resolvekit_turns_total", ResolveKitMetrics.TurnEnding.allCases.map(\.rawValue)),
        ("resolvekit_event_stream_reconnects_total", ResolveKitMetrics.ReconnectReason.allCases.map(\.rawValue)),
        ("resolvekit_tool_result_delivery_retries_total", ResolveKitMetrics.RetryReason.allCases.map(\.rawValue)),
        ("resolvekit_tool_results_total", ["delivered", "abandoned"]),
        ("resolvekit_telemetry_spans_dropped_total", BatchSpanProcessor.DropReason.allCases.map(\.rawValue)),
    ]

    @Test func theMetricsTableNamesEveryValueOfItsFixedLabels() throws {
        let meanings = try Self.readmeMeanings()
        for (metric, values) in Self.labelValues {
            let meaning = try #require(meanings[metric], "no row for \(metric)")
            for value in values {
                #expect(meaning.contains("`\(value)`"), "\(metric)'s row does not name `\(value)`")
            }
        }
    }
}
