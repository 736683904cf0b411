import ResolveKit
import ResolveKitTesting
import Synchronization

/// Counts everything that happens in the soak (requests, stream writes, log records, runtime events, function
/// runs), so the clock driver can tell when the system has gone quiet and only a timer can move it on.
final class SoakActivity: Sendable {
    static let shared = SoakActivity()
    private let generation = Atomic<Int>(0)
    /// Every log record the runtimes produced, for the secrets check; the newest 20 000.
    private let records = Mutex<[String]>([])
    private let cursorResets = Atomic<Int>(0)
    private let requests = Mutex<[String]>([])

    private let notes = Mutex<[String]>([])

    /// The newest requests the backend received, for hang reports.
    var recentRequests: [String] { requests.withLock { $0 } }

    /// The newest client-side happenings (finished exchanges as the runtime saw them, clock jumps), for hang
    /// reports: a request the backend never received shows here as finished with its failure, or not at all.
    var recentNotes: [String] { notes.withLock { $0 } }

    func note(_ text: String) {
        bump()
        notes.withLock { lines in
            lines.append(text)
            if lines.count > 30 { lines.removeFirst(lines.count - 30) }
        }
    }

    func bump() { generation.add(1, ordering: .relaxed) }

    var current: Int { generation.load(ordering: .relaxed) }

    /// How often a runtime reopened its stream without a cursor.
    var streamResets: Int { cursorResets.load(ordering: .relaxed) }

    /// Returns once nothing happened for `period` (real time): the only way on is a timer of the manual clock.
    func waitForQuiet(_ period: Duration) async {
        var seen = current
        while !Task.isCancelled {
            try? await Task.sleep(for: period)
            let now = current
            if now == seen { return }
            seen = now
        }
    }

    /// A logger that records every line (for the secrets check) and counts as activity.
    var logger: ResolveKitLogger {
        ResolveKitLogger(label: "soak", minimumLevel: .trace) { [self] record in
            bump()
            if record.message.hasPrefix("Reconnecting without a cursor") { cursorResets.add(1, ordering: .relaxed) }
            let line = "\(record.level) \(record.label) \(record.message) \(record.metadata)"
            records.withLock { lines in
                lines.append(line)
                if lines.count > 20_000 { lines.removeFirst(lines.count - 20_000) }
            }
        }
    }

    var loggedLines: [String] { records.withLock { $0 } }

    /// Wraps a handler so requests and streamed writes count as activity.
    func observing(_ handler: @escaping LoopbackHandler) -> LoopbackHandler {
        { [self] request in
            bump()
            requests.withLock { lines in
                lines.append("\(request.method) \(request.target)")
                if lines.count > 40 { lines.removeFirst(lines.count - 40) }
            }
            var response = await handler(request)
            bump()
            if case .stream(let body) = response.body {
                response.body = .stream { writer in try await body(ObservedWriter(base: writer, activity: self)) }
            }
            return response
        }
    }
}

private struct ObservedWriter: LoopbackBodyWriter {
    let base: any LoopbackBodyWriter
    let activity: SoakActivity

    func write(_ bytes: [UInt8]) async throws {
        activity.bump()
        try await base.write(bytes)
    }

    func abortConnection() async {
        activity.bump()
        await base.abortConnection()
    }

    var isClientGone: Bool { base.isClientGone }
}
