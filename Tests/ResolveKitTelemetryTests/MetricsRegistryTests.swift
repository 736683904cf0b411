import ResolveKitTelemetry
import Testing

struct MetricsRegistryTests {
    enum Result: String, MetricLabelValue {
        case ok, failed
        var labelIndex: Int { self == .ok ? 0 : 1 }
    }

    @Test func aCounterCountsEachCombinationOfLabelValues() throws {
        let registry = MetricsRegistry()
        let jobs = try registry.counter(
            MetricDescriptor("app_jobs", help: "Jobs."), labels: SetLabel("queue", values: ["a", "b"]),
            EnumLabel("result", of: Result.self))
        jobs.increment("a", .ok)
        jobs.increment("a", .ok)
        jobs.add(5, "b", .failed)
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"app_jobs_total{queue="a",result="ok"}"#] == 2)
        #expect(samples[#"app_jobs_total{queue="b",result="failed"}"#] == 5)
        #expect(samples.names.count == 2, "series never recorded are not shown")
        #expect(jobs.value("a", .ok) == 2)
    }

    @Test func aValueOutsideTheSetIsCountedAsOtherNeverAsANewSeries() throws {
        let registry = MetricsRegistry()
        let jobs = try registry.counter(
            MetricDescriptor("app_jobs", help: "Jobs."), labels: SetLabel("queue", values: ["a"]))
        for index in 0..<100 { jobs.increment("user-\(index)") }
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples.names == [#"app_jobs_total{queue="other"}"#])
        #expect(samples[#"app_jobs_total{queue="other"}"#] == 100)
    }

    @Test func aValueResolvedOnceRecordsLikeTheValue() throws {
        let registry = MetricsRegistry()
        let queue = SetLabel("queue", values: ["a", "b"])
        let jobs = try registry.counter(MetricDescriptor("app_jobs", help: "Jobs."), labels: queue.resolved)
        let waits = try registry.histogram(
            MetricDescriptor("app_wait_seconds", help: "Waits."), buckets: [1], labels: queue.resolved)
        let slot = queue.resolve("b")
        jobs.increment(slot)
        waits.observe(0.5, slot)
        jobs.increment(queue.resolve("zzz"))
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"app_jobs_total{queue="b"}"#] == 1)
        #expect(samples[#"app_jobs_total{queue="other"}"#] == 1)
        #expect(samples[#"app_wait_seconds_count{queue="b"}"#] == 1)
    }

    @Test(arguments: ["", "1abc", "has-dash", "has:colon", "jobs_total", "wait_count", "wait_sum", "x_bucket", "a b"])
    func aNameThatBreaksPrometheusRulesIsRefused(name: String) {
        let error = #expect(throws: TelemetryError.self) {
            try MetricsRegistry().counter(MetricDescriptor(name, help: "x"))
        }
        #expect(error?.code == .invalidMetricName)
    }

    @Test(arguments: ["__reserved", "1st", "with-dash", "le"])
    func aLabelNameThatBreaksTheRulesIsRefused(label: String) {
        let error = #expect(throws: TelemetryError.self) {
            try MetricsRegistry().histogram(
                MetricDescriptor("app_wait_seconds", help: "x"), buckets: [1], labels: SetLabel(label, values: ["a"]))
        }
        #expect(error?.code == .invalidLabel)
    }

    @Test func aSetLabelMayNotHoldOtherOrAnEmptyValue() {
        for values in [["a", "other"], ["a", ""]] {
            let error = #expect(throws: TelemetryError.self) {
                try MetricsRegistry().counter(
                    MetricDescriptor("app_x", help: "x"), labels: SetLabel("k", values: values))
            }
            #expect(error?.code == .invalidLabel)
        }
    }

    @Test func aNameWhoseSamplesClashWithAnotherFamilyIsRefused() throws {
        let registry = MetricsRegistry()
        _ = try registry.histogram(MetricDescriptor("app_wait", help: "x"), buckets: [1])
        let same = #expect(throws: TelemetryError.self) { try registry.gauge(MetricDescriptor("app_wait", help: "x")) }
        #expect(same?.code == .duplicateMetric)
        _ = try registry.counter(MetricDescriptor("app_jobs", help: "x"))
        let again = #expect(throws: TelemetryError.self) {
            try registry.counter(MetricDescriptor("app_jobs", help: "x"))
        }
        #expect(again?.code == .duplicateMetric)
        let process = #expect(throws: TelemetryError.self) {
            try registry.register(ProcessMetrics())
            try registry.register(ProcessMetrics())
        }
        #expect(process?.code == .duplicateMetric)
    }

    @Test(arguments: [[], [1, 1], [2, 1], [1, .infinity], [.nan]])
    func bucketsMustBeFiniteAndStrictlyIncreasing(buckets: [Double]) {
        let error = #expect(throws: TelemetryError.self) {
            try MetricsRegistry().histogram(MetricDescriptor("app_wait_seconds", help: "x"), buckets: buckets)
        }
        #expect(error?.code == .invalidBuckets)
    }

    @Test func aFamilyWithTooManySeriesIsRefused() {
        let error = #expect(throws: TelemetryError.self) {
            try MetricsRegistry().counter(
                MetricDescriptor("app_x", help: "x"), labels: SetLabel("a", values: (0..<200).map(String.init)),
                SetLabel("b", values: (0..<200).map(String.init)))
        }
        #expect(error?.code == .invalidLabel)
    }

    @Test func anObservationOnABoundFallsInThatBoundsBucket() throws {
        let registry = MetricsRegistry()
        let wait = try registry.histogram(
            MetricDescriptor("app_wait_seconds", help: "x", unit: "s"), buckets: [0.1, 1])
        for value in [0.05, 0.1, 0.5, 1, 3, .nan] { wait.observe(value) }
        wait.observe(.milliseconds(250))
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"app_wait_seconds_bucket{le="0.1"}"#] == 2)
        #expect(samples[#"app_wait_seconds_bucket{le="1"}"#] == 5)
        #expect(samples[#"app_wait_seconds_bucket{le="+Inf"}"#] == 6)
        #expect(samples["app_wait_seconds_count"] == 6, "NaN is not counted")
        #expect(samples["app_wait_seconds_sum"] == 4.9)
        #expect(wait.value().cumulativeCounts == [2, 5, 6])
    }

    @Test func aGaugeShowsOnlyTheSeriesEverSetAndGoesDown() throws {
        let registry = MetricsRegistry()
        let open = try registry.gauge(
            MetricDescriptor("app_open", help: "x"), labels: EnumLabel("result", of: Result.self))
        open.increment(.ok)
        open.increment(.ok)
        open.decrement(.ok)
        open.set(0, .failed)
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples[#"app_open{result="ok"}"#] == 1)
        #expect(samples[#"app_open{result="failed"}"#] == 0)
        #expect(open.value(.ok) == 1)
    }

    @Test func aFamilyWithoutLabelsIsShownBeforeAnythingIsRecorded() throws {
        let registry = MetricsRegistry()
        _ = try registry.gauge(MetricDescriptor("app_open", help: "x"))
        _ = try registry.counter(MetricDescriptor("app_jobs", help: "x"))
        let samples = ExpositionSamples(registry.exposition())
        #expect(samples["app_open"] == 0)
        #expect(samples["app_jobs_total"] == 0)
    }
}
