import Testing

@testable import rk_bench

@Suite("rk-bench: a series of runs")
struct SeriesReportTests {
    @Test("--runs takes a count from 1 to 100 and names itself when it is wrong")
    func runsOption() {
        let known = ["sessions", "tool-latency"]
        guard case .success(.run(let options)) = BenchOptions.parse(["sessions", "--runs", "10"], known: known) else {
            Issue.record("--runs 10 was refused")
            return
        }
        #expect(options.runs == 10 && options.workloads == ["sessions"])
        for wrong in [["--runs"], ["--runs", "0"], ["--runs", "101"], ["--runs", "ten"]] {
            guard case .failure(let failure) = BenchOptions.parse(wrong, known: known) else {
                Issue.record("\(wrong) was accepted")
                continue
            }
            #expect(failure.message.hasPrefix("--runs needs a number from 1 to 100"))
        }
    }

    @Test("a row's series shows its target's figure by run, their median, and the runs that met it")
    func targetCounted() throws {
        let p99s = [4400.0, 2800, 5300, 7300, 4100]
        let runs = p99s.map { p99 in
            [
                Measurement(
                    workload: "sessions", contender: "concurrent-dispatch", value: 1, unit: "us",
                    details: ["n": 100, "p99": p99], target: .init(figure: "p99", limit: 5000))
            ]
        }
        let lines = Report.series(runs).split(separator: "\n")
        #expect(lines.count == 3)
        let row = try #require(lines.last)
        #expect(row.contains("p99"))
        #expect(row.contains("4400.0"))  // the median of the five
        #expect(row.contains("3 of 5 ≤ 5000.0"))
        #expect(row.hasSuffix("4400.0 2800.0 5300.0 7300.0 4100.0"))
    }

    @Test("a row with samples also shows its figure of every run's samples pooled, a comparison against the pooled baseline")
    func pooled() throws {
        // Run 1's p99 (its 100th of 100) is an outlier the other run does not have: each run's comparison swings,
        // the pooled one does not.
        func run(slowest: Double) -> [Measurement] {
            let off = (1...100).map { Double($0) }
            let on = off.map { $0 * 1.02 }.dropLast() + [slowest]
            return [
                ToolLatencyWorkload.row("tool-latency", "result-post", off),
                ToolLatencyWorkload.row(
                    "tool-latency", "result-post+telemetry", Array(on), against: ToolLatencyWorkload.row(
                        "tool-latency", "result-post", off)),
            ]
        }
        let lines = Report.series([run(slowest: 200), run(slowest: 102)]).split(separator: "\n")
        #expect(lines[0].contains("all runs"))
        let plain = try #require(lines.first { $0.contains("result-post ") })
        // 200 samples pooled: the p99 is the 199th smallest, 100 (of run 1 or 2).
        #expect(plain.contains("p99") && plain.contains("100.0"))
        let telemetry = try #require(lines.first { $0.contains("result-post+telemetry") })
        // By run: +100 % and +2 %; pooled, the 199th of 200 is run 2's slowest at 102, +2 %.
        #expect(telemetry.hasSuffix("100.0 2.0"))
        #expect(telemetry.contains("vs_off_p99  %     51.0    1 of 2 ≤ 5.0     2.0"))
    }

    @Test("a row without samples has no pooled figure")
    func notPooled() {
        let row = Measurement(
            workload: "sessions", contender: "idle-rss", value: 51, unit: "KiB/session", details: ["n": 1000, "p99": 1])
        #expect(Report.pooledFigure("value", of: [row, row], against: nil) == nil)
        #expect(Report.pooledFigure("p99", of: [row, row], against: nil) == nil)
        let compared = ToolLatencyWorkload.row("tool-latency", "call-dispatch", [1, 2, 3])
        #expect(Report.pooledFigure("vs_off_p99", of: [compared], against: nil) == nil)
        #expect(Report.pooledFigure("vs_off_p99", of: [compared], against: [compared]) == 0)
    }

    @Test("rows of the same contender for different session counts are separate series, in first-seen order")
    func rowsKeptApart() {
        func idle(_ count: Double, _ kib: Double) -> Measurement {
            Measurement(
                workload: "sessions", contender: "idle-rss", value: kib, unit: "KiB/session", details: ["n": count],
                target: count == 1000 ? .init(figure: "value", limit: 64) : nil)
        }
        let report = Report.series([[idle(100, 57), idle(1000, 51)], [idle(100, 59), idle(1000, 52)]])
        let lines = report.split(separator: "\n").dropFirst(2)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("58.0") == true && lines.first?.contains(" - ") == true)
        #expect(lines.last?.contains("51.5") == true && lines.last?.contains("2 of 2 ≤ 64.0") == true)
    }

    @Test("the median of an even count is the mean of the middle two; of none, nothing")
    func median() {
        #expect([3.0, 1, 2].median == 2)
        #expect([4.0, 1, 3, 2].median == 2.5)
        #expect([Double]().median == nil)
    }
}
