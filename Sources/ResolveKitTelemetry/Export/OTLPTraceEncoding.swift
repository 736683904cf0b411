import ResolveKitCore

/// Spans as an OTLP `ExportTraceServiceRequest`, in protobuf (`http/protobuf`, and `grpc`, which frames it) or JSON.
/// In JSON: ids as lower-case
/// hex, enums as numbers, 64-bit integers as strings, lowerCamelCase field names.
public enum OTLPTraceEncoding {
    /// The message of an export of `spans` about `resource`: the body, over HTTP; gRPC frames it.
    public static func encode(_ spans: [FinishedSpan], resource: TelemetryResource, as encoding: OTLPEncoding)
        -> [UInt8]
    {
        switch encoding {
        case .protobuf, .grpc: protobuf(spans, resource: resource)
        case .json: json(spans, resource: resource)
        }
    }

    private static func json(_ spans: [FinishedSpan], resource: TelemetryResource) -> [UInt8] {
        var writer = OTLPJSONWriter(capacity: 512 + spans.count * 768)
        writer.beginObject()
        writer.key("resourceSpans")
        writer.beginArray()
        writer.beginObject()
        writer.resource(resource)
        writer.key("scopeSpans")
        writer.beginArray()
        writer.beginObject()
        writer.scope()
        writer.key("spans")
        writer.beginArray()
        for span in spans { writer.span(span) }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private static func protobuf(_ spans: [FinishedSpan], resource: TelemetryResource) -> [UInt8] {
        var writer = OTLPProtobufWriter(capacity: 256 + spans.count * 320)
        writer.beginMessage(1)  // ResourceSpans
        writer.resource(resource)
        writer.beginMessage(2)  // ScopeSpans
        writer.scope()
        for span in spans { writer.span(span) }
        writer.endMessage()
        writer.endMessage()
        return writer.bytes
    }
}

extension OTLPJSONWriter {
    /// One `Span`.
    mutating func span(_ span: FinishedSpan) {
        beginObject()
        key("traceId")
        hexID(span.context.traceID.high, span.context.traceID.low)
        key("spanId")
        hexID(span.context.spanID.rawValue)
        if !span.context.traceState.isEmpty {
            key("traceState")
            string(span.context.traceState.headerValue)
        }
        if let parent = span.parentSpanID {
            key("parentSpanId")
            hexID(parent.rawValue)
        }
        // Bits 0–7 the trace flags, bit 8 "whether the parent is remote is known", bit 9 "it is".
        key("flags")
        number(Int(span.context.flags.rawValue) | 0x100 | (span.parentIsRemote ? 0x200 : 0))
        key("name")
        string(span.name)
        key("kind")
        number(span.kind.rawValue)
        key("startTimeUnixNano")
        integerString(span.startTimeUnixNano)
        key("endTimeUnixNano")
        integerString(span.endTimeUnixNano)
        attributes(span.attributes)
        if span.droppedAttributesCount > 0 {
            key("droppedAttributesCount")
            number(span.droppedAttributesCount)
        }
        if !span.events.isEmpty {
            key("events")
            beginArray()
            for event in span.events {
                beginObject()
                key("timeUnixNano")
                integerString(event.timeUnixNano)
                key("name")
                string(event.name)
                attributes(event.attributes)
                endObject()
            }
            endArray()
        }
        if span.droppedEventsCount > 0 {
            key("droppedEventsCount")
            number(span.droppedEventsCount)
        }
        if !span.links.isEmpty {
            key("links")
            beginArray()
            for link in span.links {
                beginObject()
                key("traceId")
                hexID(link.context.traceID.high, link.context.traceID.low)
                key("spanId")
                hexID(link.context.spanID.rawValue)
                if !link.context.traceState.isEmpty {
                    key("traceState")
                    string(link.context.traceState.headerValue)
                }
                attributes(link.attributes)
                endObject()
            }
            endArray()
        }
        key("status")
        beginObject()
        if case .error(let description) = span.status {
            key("message")
            string(description)
        }
        if span.status.code != 0 {
            key("code")
            number(span.status.code)
        }
        endObject()
        endObject()
    }
}

extension OTLPProtobufWriter {
    /// One `Span`, in field 2 of its `ScopeSpans`.
    mutating func span(_ span: FinishedSpan) {
        beginMessage(2)
        id(1, span.context.traceID.high, span.context.traceID.low)
        id(2, span.context.spanID.rawValue)
        if !span.context.traceState.isEmpty { string(3, span.context.traceState.headerValue) }
        if let parent = span.parentSpanID { id(4, parent.rawValue) }
        string(5, span.name)
        varint(6, UInt64(span.kind.rawValue))
        fixed64(7, span.startTimeUnixNano)
        fixed64(8, span.endTimeUnixNano)
        attributes(9, span.attributes)
        varint(10, UInt64(span.droppedAttributesCount))
        for event in span.events {
            beginMessage(11)
            fixed64(1, event.timeUnixNano)
            string(2, event.name)
            attributes(3, event.attributes)
            endMessage()
        }
        varint(12, UInt64(span.droppedEventsCount))
        for link in span.links {
            beginMessage(13)
            id(1, link.context.traceID.high, link.context.traceID.low)
            id(2, link.context.spanID.rawValue)
            if !link.context.traceState.isEmpty { string(3, link.context.traceState.headerValue) }
            attributes(4, link.attributes)
            endMessage()
        }
        if span.status.code != 0 {
            beginMessage(15)
            if case .error(let description) = span.status { string(2, description) }
            varint(3, UInt64(span.status.code))
            endMessage()
        }
        // Bits 0–7 the trace flags, bit 8 "whether the parent is remote is known", bit 9 "it is".
        fixed32(16, UInt32(span.context.flags.rawValue) | 0x100 | (span.parentIsRemote ? 0x200 : 0))
        endMessage()
    }
}
