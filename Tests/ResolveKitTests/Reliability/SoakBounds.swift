import Foundation
import ResolveKit
import ResolveKitHTTP
import ResolveKitTesting
import Synchronization
import Testing

/// The memory and secrecy invariants of the soak.
enum SoakBounds {
    /// The journal keeps at most 4096 entries, and is compacted once its store holds four records per entry.
    static let maxJournalEntries = 4096 * 4

    /// Calls the runtime is still deciding on or running.
    static func unfinishedCalls(_ runtime: ResolveKitRuntime) -> [ToolCallChecklistItem] {
        runtime.toolCallBatches.flatMap(\.items).filter { $0.status == .running || $0.status == .pendingApproval }
    }

    static func violations(of world: SoakWorld) -> [String] {
        let runtime = world.runtime
        var problems: [String] = []
        if runtime.messages.count > 1000 { problems.append("\(runtime.messages.count) messages kept") }
        if runtime.executionLog.count > 500 { problems.append("\(runtime.executionLog.count) log lines kept") }
        if runtime.toolCallBatches.count > 200 { problems.append("\(runtime.toolCallBatches.count) batches kept") }
        if runtime.toolCallChecklist.count > 64 { problems.append("checklist of \(runtime.toolCallChecklist.count)") }
        let unfinished = unfinishedCalls(runtime)
        if !unfinished.isEmpty {
            let counters = world.backend.counters
            let details = unfinished.map { "\($0.id) \($0.functionName) \($0.status) \(counters.toolResults[$0.id.rawValue] ?? .init())" }
            problems.append("calls left unfinished: \(details) log: \(SoakActivity.shared.loggedLines.filter { line in unfinished.contains { line.contains($0.id.rawValue) } })")
        }
        return problems
    }

    /// The journal Redis holds stays bounded: at most its capacity plus what was pruned since its last
    /// compaction, and, once a turn is settled, few calls unsettled.
    static func storeViolations(of world: SoakWorld) async -> [String] {
        guard let stored = await world.storedJournal() else { return ["the state in Redis could not be read"] }
        var problems: [String] = []
        if stored.entries > maxJournalEntries { problems.append("a journal of \(stored.entries) entries in Redis") }
        if stored.unsettled > 64 { problems.append("\(stored.unsettled) calls unsettled in Redis") }
        return problems
    }

    /// The API key and capability tokens (JWTs, `eyJ…`) never reach a log record, the execution log, the
    /// transcript or the last error.
    static func checkSecrets(_ world: SoakWorld) {
        let runtime = world.runtime
        let texts: [(String, [String])] = [
            ("logger", SoakActivity.shared.loggedLines), ("executionLog", runtime.executionLog),
            ("messages", runtime.messages.map(\.text)), ("lastError", runtime.lastError.map { ["\($0)"] } ?? []),
        ]
        for (place, lines) in texts {
            #expect(!lines.contains { $0.contains(world.apiKey) }, "the API key leaked into \(place)")
            #expect(!lines.contains { $0.contains("eyJ") }, "a capability token leaked into \(place)")
        }
    }

    static func diagnostics(_ world: SoakWorld) -> String {
        let runtime = world.runtime
        let counters = world.backend.counters
        return "state \(runtime.connectionState), turn \(runtime.isTurnInProgress), turns \(counters.turnsStarted)/\(counters.turnsEnded), "
            + "emitted \(counters.toolCallsEmitted), timed out \(counters.toolCallsTimedOut), "
            + "sleepers \(world.clock.pendingDeadlines.prefix(5)), now \(world.clock.now), log tail: "
            + runtime.executionLog.suffix(15).joined(separator: " | ") + " || activity "
            + "\(SoakActivity.shared.current), logger tail: "
            + SoakActivity.shared.loggedLines.suffix(12).joined(separator: " | ") + " || requests: "
            + SoakActivity.shared.recentRequests.suffix(15).joined(separator: " | ") + " || client: "
            + SoakActivity.shared.recentNotes.suffix(20).joined(separator: " | ")
    }
}

extension SoakBounds {
    /// After a hang: whether the process-wide HTTP client still completes a fresh request (`GET /health`), to tell
    /// a wedged transport from a stuck runtime.
    static func probeHTTP(_ world: SoakWorld) async -> String {
        let answer = Mutex<String?>(nil)
        let request = HTTPRequest(method: .get, url: world.server.baseURL + "/health", timeout: .seconds(5))
        let probe = Task {
            do {
                let response = try await ResolveKitRuntime.sharedHTTPClient.send(request)
                answer.withLock { $0 = "health answered \(response.status)" }
            } catch {
                answer.withLock { $0 = "health failed: \(error)" }
            }
        }
        for _ in 0..<100 where answer.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(100)) }
        probe.cancel()
        return answer.withLock { $0 } ?? "health got no answer in 10 s: the HTTP client is wedged"
    }
}
