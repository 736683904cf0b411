import Foundation
import Synchronization

extension ReferenceBackend {
    /// `GET /v1/sdk/compat`, `GET /v1/sdk/chat-theme`, `POST /v1/sdk/client-token` (WireProtocol §2.3, §4.1, §4.2).
    func sdkEndpoint(_ name: String, method: String, request: LoopbackRequest) -> LoopbackResponse? {
        switch name {
        case "compat":
            guard method == "GET" else { return Self.methodNotAllowed }
            if let denied = authenticate(request) { return denied }
            return BackendReply.json(
                200,
                .object([
                    ("minimum_sdk_version", .string("1.0.0")), ("supported_sdk_major_versions", .array([.int(1)])),
                    (
                        "client_requirements",
                        .array(["client.platform", "client.os_version", "client.app_version"].map(WireJSON.string))
                    ),
                    ("server_time", .string(PythonTime.isoformat(now))),
                ]))
        case "chat-theme":
            guard method == "GET" else { return Self.methodNotAllowed }
            if let denied = authenticate(request) { return denied }
            return BackendReply.json(200, ChatTheme.wire)
        case "client-token":
            guard method == "POST" else { return Self.methodNotAllowed }
            return clientToken(request)
        default:
            return nil
        }
    }

    private func clientToken(_ request: LoopbackRequest) -> LoopbackResponse {
        if let denied = authenticate(request, apiKeyOnly: true) { return denied }
        if request.header("Origin") != nil { return BackendReply.detail(403, "Origin not allowed") }
        let issued = now
        let issuedAt = PythonTime.unixSeconds(issued)
        let expiresAt = issuedAt + Int(configuration.clientTokenTTL.seconds.rounded(.down))
        let token = state.withLock { state in
            let token = TokenFactory.clientToken(
                appID: configuration.appID, issuedAt: issuedAt, expiresAt: expiresAt, version: state.integrationVersion)
            state.clientTokens[token] = ClientTokenClaims(
                integrationVersion: state.integrationVersion, expiresAt: expiresAt)
            return token
        }
        let expiry = issued.addingTimeInterval(configuration.clientTokenTTL.seconds)
        return BackendReply.json(
            200, .object([("token", .string(token)), ("expires_at", .string(PythonTime.pydantic(expiry)))]),
            headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache"), ("Vary", "Origin")])
    }
}

/// The built-in chat palettes (WireProtocol §4.2), as the transcript shows them.
enum ChatTheme {
    static let keys = [
        "screenBackground", "titleText", "statusText", "composerBackground", "composerText", "composerPlaceholder",
        "userBubbleBackground", "userBubbleText", "assistantBubbleBackground", "assistantBubbleText",
        "loaderBubbleBackground", "loaderDotActive", "loaderDotInactive", "toolCardBackground", "toolCardBorder",
        "toolCardTitle", "toolCardBody",
    ]
    static let light = [
        "#F7F7FA", "#111827", "#4B5563", "#FFFFFF", "#111827", "#9CA3AF", "#DBEAFE", "#1E3A8A", "#E5E7EB", "#111827",
        "#E5E7EB", "#374151", "#9CA3AF", "#FFFFFFCC", "#D1D5DB", "#111827", "#374151",
    ]
    static let dark = [
        "#0B0C10", "#E5E7EB", "#9CA3AF", "#111318", "#E5E7EB", "#6B7280", "#1E3A8A99", "#DBEAFE", "#1F2937", "#E5E7EB",
        "#1F2937", "#E5E7EB", "#6B7280", "#111318CC", "#374151", "#E5E7EB", "#9CA3AF",
    ]

    static var wire: WireJSON {
        func palette(_ colors: [String]) -> WireJSON { .object(zip(keys, colors).map { ($0, .string($1)) }) }
        return .object([("light", palette(light)), ("dark", palette(dark))])
    }
}
