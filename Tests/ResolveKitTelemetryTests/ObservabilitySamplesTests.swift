import Foundation
import ResolveKitChildProcess
import ResolveKitTelemetry
import ResolveKitTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ObservabilitySamplesTests {
    static let folder = ProgramRunner.packageRoot.appending(path: "Samples/observability")

    static func read(_ name: String) throws -> String {
        try String(contentsOf: folder.appending(path: name), encoding: .utf8)
    }

    static func dashboardQueries() throws -> [String] {
        let data = try Data(contentsOf: folder.appending(path: "grafana-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        return panels.flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }
    }

    @Test(.enabled(if: ExternalProgram.promtool.shouldRun, Comment(rawValue: ExternalProgram.promtool.skipNote)))
    func theScrapeConfigurationAndAlertRulesPassPromtoolAndTheRulesTheirUnitTests() async throws {
        let promtool = try ExternalProgram.promtool.require()
        for arguments in [
            ["check", "config", Self.folder.appending(path: "prometheus.yml").path],
            ["check", "rules", Self.folder.appending(path: "alerts.yml").path],
            ["test", "rules", Self.folder.appending(path: "alerts.test.yml").path],
        ] {
            let output = try await ProgramRunner.run(promtool, arguments)
            #expect(
                output.termination.status == 0, "promtool \(arguments): \(output.standardOutput)\(output.standardError)"
            )
            #expect(output.standardOutput.contains("SUCCESS"))
        }
    }

    /// Every panel's query, with Grafana's variables filled in, parsed by promtool as a recording rule.
    @Test(.enabled(if: ExternalProgram.promtool.shouldRun, Comment(rawValue: ExternalProgram.promtool.skipNote)))
    func everyDashboardQueryIsValidPromQL() async throws {
        let promtool = try ExternalProgram.promtool.require()
        let queries = try Self.dashboardQueries()
        #expect(queries.count >= 20)
        var rules = "groups:\n  - name: dashboard\n    rules:\n"
        for (index, query) in queries.enumerated() {
            let filled = query.replacingOccurrences(of: "$__rate_interval", with: "5m")
                .replacingOccurrences(of: "$job", with: ".*").replacingOccurrences(of: "$instance", with: ".*")
            let quoted = filled.replacingOccurrences(of: "'", with: "''")
            rules += "      - record: dashboard:query\(index)\n        expr: '\(quoted)'\n"
        }
        let output = try await ProgramRunner.withTemporaryFile(named: "dashboard-rules.yml", Array(rules.utf8)) {
            path in
            try await ProgramRunner.run(promtool, ["check", "rules", path])
        }
        #expect(output.termination.status == 0, "\(output.standardOutput)\(output.standardError)")
    }

    @Test func theAlertsAndTheDashboardNameOnlyMetricsOfTheCatalog() throws {
        let known = try CatalogNames.sampleNames()
        let alerts = CatalogNames.mentioned(in: try Self.read("alerts.yml") + Self.read("alerts.test.yml"))
        let dashboard = CatalogNames.mentioned(in: try Self.dashboardQueries().joined(separator: "\n"))
        #expect(alerts.subtracting(known).isEmpty, "unknown in the alerts: \(alerts.subtracting(known).sorted())")
        #expect(
            dashboard.subtracting(known).isEmpty, "unknown in the dashboard: \(dashboard.subtracting(known).sorted())")
        #expect(dashboard.count >= 18, "the dashboard shows \(dashboard.count) metrics")
        for name in [
            "resolvekit_event_streams_connected", "resolvekit_approvals_pending", "resolvekit_tool_calls_total",
            "resolvekit_tool_result_delivery_retries_total",
        ] {
            #expect(alerts.contains(name), "no alert on \(name)")
        }
    }
}
