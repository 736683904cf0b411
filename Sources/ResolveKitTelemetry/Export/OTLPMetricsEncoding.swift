/// Metric snapshots as an OTLP `ExportMetricsServiceRequest`, in protobuf (also for gRPC) or JSON: counters as
/// monotonic cumulative sums, gauges as gauges, histograms with explicit bounds; names and units as OpenTelemetry
/// names them (`gen_ai.client.token.usage`, `{token}`), label names as attribute keys.
public enum OTLPMetricsEncoding {
    /// The message of a push of `families` about `resource`: the body, over HTTP; gRPC frames it.
    /// - Parameters:
    ///   - startTimeUnixNano: When the cumulative values started (the process or registry start).
    ///   - timeUnixNano: When the values were read.
    ///   - encoding: The body's encoding.
    public static func encode(
        _ families: [MetricFamilySnapshot], resource: TelemetryResource, startTimeUnixNano: UInt64,
        timeUnixNano: UInt64, as encoding: OTLPEncoding
    ) -> [UInt8] {
        switch encoding {
        case .protobuf, .grpc:
            var writer = OTLPProtobufWriter(capacity: 8 * 1024)
            writer.beginMessage(1)  // ResourceMetrics
            writer.resource(resource)
            writer.beginMessage(2)  // ScopeMetrics
            writer.scope()
            for family in families { writer.metric(family, start: startTimeUnixNano, time: timeUnixNano) }
            writer.endMessage()
            writer.endMessage()
            return writer.bytes
        case .json:
            return json(families, resource: resource, start: startTimeUnixNano, time: timeUnixNano)
        }
    }

    private static func json(
        _ families: [MetricFamilySnapshot], resource: TelemetryResource, start: UInt64, time: UInt64
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
            writer.metric(family, start: start, time: time)
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
            attributes(series.attributes)
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

extension OTLPProtobufWriter {
    /// One `Metric`, in field 2 of its `ScopeMetrics`.
    mutating func metric(_ family: MetricFamilySnapshot, start: UInt64, time: UInt64) {
        beginMessage(2)
        string(1, family.descriptor.otelName)
        string(2, family.descriptor.help)
        string(3, family.descriptor.unit)
        switch family.kind {
        case .gauge: beginMessage(5)
        case .counter: beginMessage(7)
        case .histogram: beginMessage(9)
        }
        for series in family.series {
            beginMessage(1)  // a data point
            switch series.value {
            case .counter(let value), .gauge(let value):
                if family.kind != .gauge { fixed64(2, start) }
                fixed64(3, time)
                doubleAlways(4, value)
                attributes(7, series.attributes)
            case .histogram(let histogram):
                fixed64(2, start)
                fixed64(3, time)
                fixed64(4, histogram.count)
                doubleAlways(5, histogram.sum)
                packedFixed64(6, histogram.bucketCounts)
                packedDouble(7, histogram.bounds)
                attributes(9, series.attributes)
            }
            endMessage()
        }
        if family.kind != .gauge { varint(2, 2) }  // cumulative
        if family.kind == .counter { varint(3, 1) }  // monotonic
        endMessage()
        endMessage()
    }
}

extension MetricFamilySnapshot.Series {
    /// The labels as OTLP attributes, keyed by their OpenTelemetry names; an absent (empty) label is left out.
    var attributes: [SpanAttribute] {
        labels.filter { !$0.value.isEmpty }.map { SpanAttribute($0.attributeKey, .string($0.value)) }
    }
}
