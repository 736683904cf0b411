import Foundation
import ResolveKitCore

/// Claims of an issued chat capability token (WireProtocol §2.2).
struct CapabilityClaims: Sendable {
    var sessionID: String
    var appID: String
    var integrationVersion: Int
    var issuedAt: Int
    var expiresAt: Int
}

/// Claims of an issued SDK client token (WireProtocol §2.3).
struct ClientTokenClaims: Sendable {
    var integrationVersion: Int
    var expiresAt: Int
}

/// Everything the backend keeps, guarded by one mutex.
struct BackendState: Sendable {
    var functions: [RegisteredFunction] = []
    var sessions: [String: SessionRecord] = [:]
    var capabilityTokens: [String: CapabilityClaims] = [:]
    var clientTokens: [String: ClientTokenClaims] = [:]
    var integrationVersion = 1
    var integrationEnabled = true
    var eventIDs: EventIDGenerator
    var turnTasks: [String: Task<Void, Never>] = [:]
    /// Timers that release the locks of turns lost by a restart, by turn id.
    var lockReleases: [String: Task<Void, Never>] = [:]
    var counters = ReferenceBackend.Counters()
    var stopped = false
    /// Bumped by `dropOpenStreams()`: streams opened before the bump cut themselves.
    var streamDropGeneration = 0
    /// Every event stream of every session, in the order they opened.
    var streamSpans: [String: [ReferenceBackend.StreamSpan]] = [:]
    /// The open event streams of each session, which a task that appends a call writes to (`flushStreams(of:)`).
    var liveStreams: [String: [LiveStream]] = [:]

    init(style: ReferenceBackend.EventIDStyle) {
        eventIDs = EventIDGenerator(style: style)
    }

    /// Functions offered to the model for this session (WireProtocol §7.7, without the version bounds).
    func eligibleFunctions(for session: SessionRecord) -> [RegisteredFunction] {
        let allowed = Set(session.availableFunctionNames)
        return functions.filter { function in
            guard function.isActive, allowed.contains(function.name) else { return false }
            let platforms = function.availability["platforms"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard platforms.isEmpty || session.platform.map(platforms.contains) == true else { return false }
            return VersionBounds(function.availability).admits(session.clientContext)
        }
    }

    mutating func count(_ callID: String, _ update: (inout ReferenceBackend.ToolResultCounts) -> Void) {
        update(&counters.toolResults[callID, default: ReferenceBackend.ToolResultCounts()])
    }
}

/// `min_/max_os_version` and `min_/max_app_version` of a function's availability, compared as dotted numbers.
struct VersionBounds {
    var bounds: [(key: String, minimum: [Int]?, maximum: [Int]?)] = []
    var malformed = false

    init(_ availability: JSONValue) {
        for key in ["os", "app"] {
            let minimum = availability["min_\(key)_version"]?.stringValue
            let maximum = availability["max_\(key)_version"]?.stringValue
            guard minimum != nil || maximum != nil else { continue }
            let parsedMinimum = minimum.flatMap(Self.parse)
            let parsedMaximum = maximum.flatMap(Self.parse)
            if (minimum != nil && parsedMinimum == nil) || (maximum != nil && parsedMaximum == nil) { malformed = true }
            bounds.append(("\(key)_version", parsedMinimum, parsedMaximum))
        }
    }

    func admits(_ client: JSONValue) -> Bool {
        guard !malformed else { return false }
        for bound in bounds {
            guard let text = client[bound.key]?.stringValue, let version = Self.parse(text) else { return false }
            if let minimum = bound.minimum, Self.compare(version, minimum) < 0 { return false }
            if let maximum = bound.maximum, Self.compare(version, maximum) > 0 { return false }
        }
        return true
    }

    static func parse(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.map { $0! }
    }

    static func compare(_ lhs: [Int], _ rhs: [Int]) -> Int {
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }
}
