import Foundation
import ResolveKitTelemetry
import ResolveKitTesting
import Synchronization
import Testing

/// `Telemetry.run()` exports at background priority whatever its caller's, so an export never takes a core from a
/// tool call, and it still ends when its caller is cancelled. Real exports to a loopback OTLP receiver.
@Suite(.timeLimit(.minutes(1)))
struct TelemetryRunTests {
    /// The real transport, noting for each export the priority of the task that sends it and the `nice` value of
    /// its thread.
    final class WatchingTransport: OTLPTransport {
        let transport: PlainHTTPTransport
        let seen = Mutex<[(priority: TaskPriority, nice: Int?)]>([])

        init() throws {
            transport = try PlainHTTPTransport()
        }

        func send(_ request: OTLPRequest) async throws(TelemetryError) -> OTLPResponse {
            seen.withLock { $0.append((Task.currentPriority, Self.threadNice())) }
            return try await transport.send(request)
        }

        func shutdown() async { await transport.shutdown() }

        /// Field 19 of `/proc/thread-self/stat`, counted after the command name's closing parenthesis.
        static func threadNice() -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 16
            else { return nil }
            return Int(fields[16])
        }
    }

    static func telemetry(_ url: String, transport: WatchingTransport) throws -> Telemetry {
        let configuration = TelemetryConfiguration(
            resource: TelemetryResource(serviceName: "run-tests"), traces: .init(endpoint: url + "/v1/traces"))
        return try Telemetry(configuration: configuration, transport: transport)
    }

    @Test func theExportLoopRunsAtBackgroundPriorityWhenItsCallerRunsHigh() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let transport = try WatchingTransport()
            let telemetry = try Self.telemetry(server.baseURL, transport: transport)
            let exporting = Task(priority: .high) { await telemetry.run() }
            #expect(await pollUntil { telemetry.spanProcessor?.isRunning == true })
            telemetry.tracer.startSpan("exported at background priority").end()
            #expect(await telemetry.flush(timeout: .seconds(20)))
            await telemetry.shutdown(timeout: .seconds(5))
            await exporting.value
            let seen = transport.seen.withLock { $0 }
            #expect(!seen.isEmpty)
            #expect(seen.allSatisfy { $0.priority == .background }, "\(seen)")
            // Dispatch runs background work on Linux at a higher nice (10 in a process at 0) than this test's own
            // thread: the kernel serves the rest of the process first.
            let testNice = try #require(WatchingTransport.threadNice())
            #expect(seen.allSatisfy { ($0.nice ?? testNice) > testNice }, "\(seen), the test's thread at \(testNice)")
            #expect(receiver.requests.count == seen.count)
        }
    }

    @Test func cancellingTheCallerEndsTheLoop() async throws {
        let receiver = OTLPReceiver()
        try await LoopbackHTTPServer.withServer(handler: receiver.handler) { server in
            let telemetry = try Self.telemetry(server.baseURL, transport: try WatchingTransport())
            let exporting = Task { await telemetry.run() }
            #expect(await pollUntil { telemetry.spanProcessor?.isRunning == true })
            exporting.cancel()
            await exporting.value
            #expect(telemetry.spanProcessor?.isRunning == false)
        }
    }

    @Test func aCallerCancelledBeforeTheLoopStartedEndsItToo() async throws {
        let telemetry = try Self.telemetry("http://127.0.0.1:9", transport: try WatchingTransport())
        let exporting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await telemetry.run()
        }
        await exporting.value
        #expect(telemetry.spanProcessor?.isRunning == false)
    }
}
