import ResolveKit
import ResolveKitTesting
import Synchronization

/// One fault the soak injects, drawn from the seeded generator.
enum SoakFault: CaseIterable, Hashable, CustomStringConvertible {
    case dropAfterEvents
    case dropAtByteOffset
    case messages5xx
    case messages409
    case toolResults5xx
    case toolResults409
    case streamConnect5xx
    case slowStreamConnect
    case stalledStreamConnect
    case tokenExpiry
    case sessionExpired
    case eventRenumbering
    case duplicatedReplay
    case processRestart
    case replicaKill
    case backendRestartMidTurn

    var description: String {
        switch self {
        case .dropAfterEvents: "drop-after-events"
        case .dropAtByteOffset: "drop-at-byte"
        case .messages5xx: "messages-5xx"
        case .messages409: "messages-409"
        case .toolResults5xx: "tool-results-5xx"
        case .toolResults409: "tool-results-409"
        case .streamConnect5xx: "stream-5xx"
        case .slowStreamConnect: "stream-slow"
        case .stalledStreamConnect: "stream-stall"
        case .tokenExpiry: "token-expiry"
        case .sessionExpired: "session-410"
        case .eventRenumbering: "renumbering"
        case .duplicatedReplay: "duplicate-replay"
        case .processRestart: "restart"
        case .replicaKill: "replica-kill"
        case .backendRestartMidTurn: "backend-restart"
        }
    }

    /// Faults that only make sense before the message is sent (they act on `POST /messages`).
    var isBeforeSendOnly: Bool { self == .messages5xx || self == .messages409 }

    static let messages = FaultPlan.Endpoint("POST", "/v1/sessions/*/messages")
    static let toolResults = FaultPlan.Endpoint("POST", "/v1/sessions/*/tool-results")
    static let events = FaultPlan.Endpoint("GET", "/v1/sessions/*/events")

    /// Injects the fault; returns `false` when the world broke (a restarted runtime did not come up).
    func inject(into world: SoakWorld, calls: inout SoakCalls, random: inout SplitMix64) async -> Bool {
        let backend = world.backend
        let faults = backend.configuration.faults
        let serverError = [500, 502, 503, 504].randomElement(using: &random)!
        switch self {
        case .dropAfterEvents:
            faults.dropStream(.afterEvents(Int.random(in: 1...5, using: &random)))
            backend.dropOpenStreams()
        case .dropAtByteOffset:
            faults.dropStream(.atByteOffset(Int.random(in: 1...1500, using: &random)))
            backend.dropOpenStreams()
        case .messages5xx:
            faults.fail(Self.messages, status: serverError, times: Int.random(in: 1...3, using: &random))
        case .messages409:
            faults.fail(Self.messages, status: 409, times: Int.random(in: 1...3, using: &random))
        case .toolResults5xx:
            faults.fail(Self.toolResults, status: serverError, times: Int.random(in: 1...4, using: &random))
        case .toolResults409:
            faults.fail(Self.toolResults, status: 409, times: Int.random(in: 1...3, using: &random))
        case .streamConnect5xx:
            faults.fail(Self.events, status: serverError, times: Int.random(in: 1...2, using: &random))
            backend.dropOpenStreams()
        case .slowStreamConnect:
            faults.delay(Self.events, by: .seconds(Int.random(in: 1...20, using: &random)))
            backend.dropOpenStreams()
        case .stalledStreamConnect:
            // The next connect is accepted but never answered: only the client's own deadline gets it out.
            faults.stall(Self.events)
            backend.dropOpenStreams()
        case .tokenExpiry:
            backend.expireCapabilityTokens()
            if random.chance(50) { backend.dropOpenStreams() }
        case .sessionExpired:
            guard let session = world.runtime.sessionID else { return true }
            calls.collect(from: backend, sessions: world.sessions.all)
            calls.sessionEnded(session)
            backend.setStatus(.expired, ofSession: session)
            backend.dropOpenStreams()
        case .eventRenumbering:
            calls.eventsForgotten(backend.restartEventNumbering(), backend: backend)
            backend.dropOpenStreams()
        case .duplicatedReplay:
            faults.duplicateEventsOnReplay(true)
            faults.dropStream(.afterEvents(Int.random(in: 1...3, using: &random)))
            backend.dropOpenStreams()
        case .backendRestartMidTurn:
            // Before the send, the restart comes right after the turn's first tool calls; mid-turn, at once.
            if backend.restartMidTurn(lockHeldFor: .seconds(600)) == 0 {
                faults.restartAfterNextToolCalls(lockHeldFor: .seconds(600))
            }
        case .processRestart:
            if random.chance(30) { faults.fail(.init("PUT", "/v1/functions/bulk"), status: serverError) }
            return await world.restartRuntime()
        case .replicaKill:
            return await world.killReplica()
        }
        return true
    }
}
