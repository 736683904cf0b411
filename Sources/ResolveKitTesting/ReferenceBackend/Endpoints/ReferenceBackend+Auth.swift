import Foundation
import ResolveKitCore
import Synchronization

extension ReferenceBackend {
    /// The capability header names in lookup order (WireProtocol §2.2).
    static let capabilityHeaders = [
        "X-Resolvekit-Chat-Capability", "X-Playbook-Chat-Capability", "x-chat-capability-token",
    ]

    /// Checks `Authorization: Bearer <api key | client token>`; the 401 response when it fails.
    func authenticate(_ request: LoopbackRequest, apiKeyOnly: Bool = false) -> LoopbackResponse? {
        guard let value = request.header("Authorization"), value.hasPrefix("Bearer ") else {
            return BackendReply.detail(401, "Missing Authorization token")
        }
        let credential = String(value.dropFirst("Bearer ".count))
        if configuration.apiKeys.contains(credential) { return nil }
        if apiKeyOnly { return BackendReply.detail(401, "Invalid API key") }
        let nowSeconds = PythonTime.unixSeconds(now)
        let valid = state.withLock { state in
            guard let claims = state.clientTokens[credential] else { return false }
            return claims.expiresAt > nowSeconds && claims.integrationVersion == state.integrationVersion
        }
        return valid ? nil : BackendReply.detail(401, "Invalid client token")
    }

    /// Checks the capability token for `sessionID`; the 403 `chat_unavailable` response when it fails.
    func authorizeCapability(_ request: LoopbackRequest, sessionID: String) -> LoopbackResponse? {
        let token = Self.capabilityHeaders.lazy.compactMap { request.header($0)?.trimmingSpaces }.first { !$0.isEmpty }
        guard let token else { return BackendReply.chatUnavailable }
        let nowSeconds = PythonTime.unixSeconds(now)
        let appID = configuration.appID
        let valid = state.withLock { state in
            guard state.integrationEnabled, let claims = state.capabilityTokens[token] else { return false }
            return claims.sessionID == sessionID && claims.appID == appID && claims.issuedAt <= nowSeconds
                && claims.expiresAt > nowSeconds && claims.integrationVersion == state.integrationVersion
        }
        return valid ? nil : BackendReply.chatUnavailable
    }

    /// Issues a capability token for a session (its life is the capability TTL, else the session TTL).
    func issueCapabilityToken(sessionID: String, state: inout BackendState) -> String {
        let issuedAt = PythonTime.unixSeconds(now)
        let life = Int((configuration.capabilityTokenTTL ?? configuration.sessionTTL).seconds.rounded(.down))
        let claims = CapabilityClaims(
            sessionID: sessionID, appID: configuration.appID, integrationVersion: state.integrationVersion,
            issuedAt: issuedAt, expiresAt: issuedAt + life)
        let token = TokenFactory.capabilityToken(claims)
        state.capabilityTokens[token] = claims
        return token
    }

    /// The steps every session-scoped endpoint shares, in the real order: Bearer (401) → path and body
    /// validation (422) → capability (403). Returns the canonical session id or the error response.
    func sessionPreamble(_ request: LoopbackRequest, id: String, bodyIssues: [ValidationIssue] = []) -> Result<
        String, Failure
    > {
        if let denied = authenticate(request) { return .failure(Failure(denied)) }
        let canonical = Identifiers.canonicalUUID(id)
        let issues = (canonical == nil ? [ValidationIssue.invalidUUID(id)] : []) + bodyIssues
        if !issues.isEmpty { return .failure(Failure(BackendReply.validation(issues))) }
        if let denied = authorizeCapability(request, sessionID: canonical!) { return .failure(Failure(denied)) }
        return .success(canonical!)
    }

    /// A response that ends a request early, as an `Error` so it travels in a `Result`.
    struct Failure: Error {
        let response: LoopbackResponse
        init(_ response: LoopbackResponse) { self.response = response }
    }

    /// Parses a request body as JSON; a JSON error becomes pydantic's `json_invalid` issue.
    static func parseBody(_ request: LoopbackRequest) -> Result<JSONValue?, ValidationIssue> {
        guard !request.body.isEmpty else { return .success(nil) }
        do throws(JSONParseError) {
            return .success(try JSONValue(parsing: request.body))
        } catch {
            return .failure(.invalidJSON(offset: error.offset))
        }
    }
}
