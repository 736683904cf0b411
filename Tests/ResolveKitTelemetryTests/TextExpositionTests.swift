import ResolveKitTelemetry
import Testing

struct TextExpositionTests {
    private func registryWithEveryKind() throws -> MetricsRegistry {
        let registry = MetricsRegistry()
        let jobs = try registry.counter(
            MetricDescriptor(
                "app_jobs", help: "Jobs \"run\" \\ with a\nnewline.",
                constantLabels: [MetricDescriptor.ConstantLabel("region", "eu")]),
            labels: SetLabel("queue", values: ["q\"1\\\n", "plain"]))
        jobs.increment("q\"1\\\n")
        let wait = try registry.histogram(
            MetricDescriptor("app_wait_seconds", help: "Wait.", unit: "s"), buckets: [0.5, 2])
        wait.observe(1)
        return registry
    }

    @Test func theTextFormatNamesCountersWithTotalAndEscapesValues() throws {
        let text = String(decoding: try registryWithEveryKind().exposition(.prometheusText), as: UTF8.self)
        #expect(
            text == """
                # HELP app_jobs_total Jobs "run" \\\\ with a\\nnewline.
                # TYPE app_jobs_total counter
                app_jobs_total{region="eu",queue="q\\"1\\\\\\n"} 1
                # HELP app_wait_seconds Wait.
                # TYPE app_wait_seconds histogram
                app_wait_seconds_bucket{le="0.5"} 0
                app_wait_seconds_bucket{le="2"} 1
                app_wait_seconds_bucket{le="+Inf"} 1
                app_wait_seconds_sum 1
                app_wait_seconds_count 1

                """)
    }

    @Test func openMetricsNamesCounterFamiliesWithoutTotalAddsUnitsAndEndsWithEOF() throws {
        let text = String(decoding: try registryWithEveryKind().exposition(.openMetrics), as: UTF8.self)
        #expect(
            text == """
                # TYPE app_jobs counter
                # HELP app_jobs Jobs \\"run\\" \\\\ with a\\nnewline.
                app_jobs_total{region="eu",queue="q\\"1\\\\\\n"} 1
                # TYPE app_wait_seconds histogram
                # UNIT app_wait_seconds seconds
                # HELP app_wait_seconds Wait.
                app_wait_seconds_bucket{le="0.5"} 0
                app_wait_seconds_bucket{le="2.0"} 1
                app_wait_seconds_bucket{le="+Inf"} 1
                app_wait_seconds_sum 1
                app_wait_seconds_count 1
                # EOF

                """)
    }

    @Test(
        arguments: [
            (nil, ExpositionFormat.prometheusText),
            ("text/plain", .prometheusText),
            ("*/*", .prometheusText),
            ("application/openmetrics-text", .openMetrics),
            (
                "application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,"
                    + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2", .openMetrics
            ),
            ("application/openmetrics-text;version=2.0.0,text/plain;q=0.1", .prometheusText),
            ("text/plain;q=0.9, application/openmetrics-text;q=0.5", .prometheusText),
            ("application/openmetrics-text;q=0", .prometheusText),
            ("application/json", .prometheusText),
        ] as [(String?, ExpositionFormat)])
    func theAcceptHeaderChoosesTheFormat(accept: String?, format: ExpositionFormat) {
        #expect(ExpositionFormat.negotiate(accept: accept) == format)
    }

    @Test func valuesAreWrittenAsPrometheusReadsThem() throws {
        let registry = MetricsRegistry()
        let gauge = try registry.gauge(
            MetricDescriptor("app_value", help: "x"), labels: SetLabel("k", values: ["a", "b", "c", "d", "e"]))
        gauge.set(.infinity, "a")
        gauge.set(-.infinity, "b")
        gauge.set(.nan, "c")
        gauge.set(0.25, "d")
        gauge.set(1e20, "e")
        let samples = ExpositionSamples(registry.exposition())
        let text = String(decoding: registry.exposition(), as: UTF8.self)
        #expect(text.contains(#"app_value{k="a"} +Inf"#))
        #expect(text.contains(#"app_value{k="b"} -Inf"#))
        #expect(text.contains(#"app_value{k="c"} NaN"#))
        #expect(samples[#"app_value{k="d"}"#] == 0.25)
        #expect(samples[#"app_value{k="e"}"#] == 1e20)
    }
}
