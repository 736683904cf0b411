import ResolveKitCore
import Synchronization
import Testing

/// What reaches a host's sink: levels, labels, and the details a record carries.
struct ResolveKitLoggerTests {
    /// What a sink was given.
    final class Records: Sendable {
        let list = Mutex<[ResolveKitLogger.Record]>([])
    }

    /// A logger at `.debug` whose records are kept.
    static func recording() -> (ResolveKitLogger, Records) {
        let records = Records()
        let logger = ResolveKitLogger(label: "test", minimumLevel: .debug) { record in
            records.list.withLock { $0.append(record) }
        }
        return (logger, records)
    }

    @Test func aSpanContextPutsItsIdsOnEveryRecordBesideTheLoggersAndTheRecordsOwnDetails() throws {
        let (base, records) = Self.recording()
        var logger = base.with(metadata: ["service": "lights"])
        logger.spanContext = try SpanContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        logger.info("one", metadata: ["room": "kitchen"])
        logger.info("two", metadata: ["span_id": "mine"])
        let details = records.list.withLock { $0.map(\.metadata) }
        #expect(
            details[0] == [
                "service": "lights", "room": "kitchen", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
                "span_id": "00f067aa0ba902b7",
            ])
        #expect(details[1]["span_id"] == "mine", "a record's own key wins")
        #expect(details[1]["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
    }

    @Test func recordsBelowTheMinimumLevelNeverReachTheSink() {
        let (logger, records) = Self.recording()
        logger.log(.trace, "hidden")
        logger.debug("shown")
        #expect(records.list.withLock { $0.map(\.message) } == ["shown"])
    }
}
