/// Metric snapshots as an OTLP `ExportMetricsServiceRequest` in OTLP's JSON encoding: counters as monotonic
/// cumulative sums, gauges as gauges, histograms with explicit bounds; names and units as OpenTelemetry names them
/// (`gen_ai.client.token.usage`, `{token}`), label names as attribute keys.
public enum OTLPMetricsEncoding {
    /// The JSON body of a push of `families` about `resource`.
    /// - Parameters:
    ///   - startTimeUnixNano: When the cumulative values started (the process or registry start).
    ///   - timeUnixNano: When the values were read.
    public static func encode(
        _ families: [MetricFamilySnapshot], resource: TelemetryResource, startTimeUnixNano: UInt64,
        timeUnixNano: UInt64
    ) -> [UInt8] {
        var writer = OTLPJSONWriter(capacity: 16 * 1024)
        writer.beginObject()
        writer.key("resourceMetrics")
        writer.beginArray()
        writer.beginObject()
        writer.resource(resource)
        writer.key("scopeMetrics")
        writer.beginArray()
        writer.beginObject()
        writer.scope()
        writer.key("metrics")
        writer.beginArray()
        for family in families {
            writer.metric(family, start: startTimeUnixNano, time: timeUnixNano)
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}

extension OTLPJSONWriter {
    mutating func metric(_ family: MetricFamilySnapshot, start: UInt64, time: UInt64) {
        beginObject()
        key("name")
        string(family.descriptor.otelName)
        key("description")
        string(family.descriptor.help)
        if !family.descriptor.unit.isEmpty {
            key("unit")
            string(family.descriptor.unit)
        }
        switch family.kind {
        case .counter: key("sum")
        case .gauge: key("gauge")
        case .histogram: key("histogram")
        }
        beginObject()
        key("dataPoints")
        beginArray()
        for series in family.series {
            beginObject()
            attributes(
                series.labels.filter { !$0.value.isEmpty }.map { SpanAttribute($0.attributeKey, .string($0.value)) })
            if family.kind != .gauge {
                key("startTimeUnixNano")
                integerString(start)
            }
            key("timeUnixNano")
            integerString(time)
            switch series.value {
            case .counter(let value), .gauge(let value):
                key("asDouble")
                double(value)
            case .histogram(let histogram):
                key("count")
                integerString(histogram.count)
                key("sum")
                double(histogram.sum)
                key("bucketCounts")
                beginArray()
                for count in histogram.bucketCounts { integerString(count) }
                endArray()
                key("explicitBounds")
                beginArray()
                for bound in histogram.bounds { double(bound) }
                endArray()
            }
            endObject()
        }
        endArray()
        if family.kind != .gauge {
            // 2: cumulative.
            key("aggregationTemporality")
            number(2)
        }
        if family.kind == .counter {
            key("isMonotonic")
            bool(true)
        }
        endObject()
        endObject()
    }
}
