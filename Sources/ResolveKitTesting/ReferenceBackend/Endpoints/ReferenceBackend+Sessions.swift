import Foundation
import ResolveKitCore
import Synchronization

extension ReferenceBackend {
    static let sessionCreateKeys: Set<String> = [
        "device_id", "client", "llm_context", "available_function_names", "locale", "preferred_locales",
        "reuse_active_session",
    ]
    static let clientLimits = [
        "platform": 32, "os_name": 32, "os_version": 64, "app_version": 64, "app_build": 64, "sdk_name": 64,
        "sdk_version": 64,
    ]

    /// `POST /v1/sessions`: create a session or reuse the device's active one (WireProtocol §4.5).
    func createSession(_ request: LoopbackRequest) -> LoopbackResponse {
        if let denied = authenticate(request) { return denied }
        var checker: FieldChecker
        switch Self.parseBody(request).flatMap({ FieldChecker.body($0) }) {
        case .success(let body): checker = body
        case .failure(let issue): return BackendReply.validation([issue])
        }
        checker.forbidExtra(Self.sessionCreateKeys)
        let deviceID = checker.string("device_id", maxLength: 255)
        let client = readClient(&checker)
        let llmContext = readLLMContext(&checker)
        let names = checker.stringList("available_function_names", required: true, maxItems: 512, itemLength: 1...255)
        let locale = checker.string("locale", maxLength: 32)
        let preferred = checker.stringList("preferred_locales", maxItems: 20) ?? []
        let reuse = checker.bool("reuse_active_session") ?? true
        guard checker.issues.isEmpty, let names else { return BackendReply.validation(checker.issues) }
        let resolvedLocale = ChatLocalization.resolve([locale] + preferred)
        let date = now
        let ttl = configuration.sessionTTL
        let outcome: (SessionRecord, String, Bool)? = state.withLock { state in
            guard state.integrationEnabled else { return nil }
            var session: SessionRecord
            var reused = false
            if reuse, let deviceID, !deviceID.isEmpty,
                let existing = state.sessions.values.filter({
                    $0.deviceID == deviceID && $0.status == .active && !$0.isExpired(now: date, ttl: ttl)
                }).max(by: { $0.createdAt < $1.createdAt })
            {
                session = existing
                session.clientContext = client ?? .object([:])
                session.llmContext = .object(llmContext ?? [:])
                session.availableFunctionNames = names
                session.locale = resolvedLocale
                session.lastActivityAt = date
                reused = true
            } else {
                session = SessionRecord(
                    id: Identifiers.uuid(), deviceID: deviceID, clientContext: client ?? .object([:]),
                    llmContext: .object(llmContext ?? [:]), availableFunctionNames: names, locale: resolvedLocale,
                    status: .active, lastActivityAt: date, createdAt: date)
                session.appendMessage(
                    role: "assistant", content: ChatLocalization.texts(for: resolvedLocale).initialMessage, at: date)
            }
            session.deviceID = deviceID
            let token = issueCapabilityToken(sessionID: session.id, state: &state)
            state.sessions[session.id] = session
            return (session, token, reused)
        }
        guard let (session, token, reused) = outcome else { return BackendReply.chatUnavailable }
        let texts = ChatLocalization.texts(for: session.locale)
        return BackendReply.json(
            201,
            .object([
                ("id", .string(session.id)), ("app_id", .string(configuration.appID)),
                ("device_id", .optional(session.deviceID)),
                ("client_context", WireJSON(stored: session.clientContext)),
                ("llm_context", WireJSON(stored: session.llmContext)),
                ("available_function_names", .array(session.availableFunctionNames.map(WireJSON.string))),
                ("locale", .string(session.locale)), ("chat_title", .string(texts.chatTitle)),
                ("message_placeholder", .string(texts.messagePlaceholder)),
                ("initial_message", .string(texts.initialMessage)),
                ("status", .string(session.status.rawValue)),
                ("last_activity_at", .string(PythonTime.pydantic(session.lastActivityAt))),
                ("created_at", .string(PythonTime.pydantic(session.createdAt))),
                ("events_url", .string("/v1/sessions/\(session.id)/events")), ("chat_capability_token", .string(token)),
                ("reused_active_session", .bool(reused)),
            ]))
    }

    /// `PATCH /v1/sessions/{id}/context` (WireProtocol §4.6).
    func patchContext(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        var checker = FieldChecker([:], at: [.string("body")])
        var bodyIssues: [ValidationIssue] = []
        switch Self.parseBody(request).flatMap({ FieldChecker.body($0) }) {
        case .success(let body): checker = body
        case .failure(let issue): bodyIssues = [issue]
        }
        checker.forbidExtra(["client", "llm_context", "available_function_names", "locale"])
        let client = readClient(&checker)
        let llmContext = readLLMContext(&checker)
        let names =
            bodyIssues.isEmpty
            ? checker.stringList("available_function_names", required: true, maxItems: 512, itemLength: 1...255) : nil
        let locale = checker.string("locale", maxLength: 32)
        let sessionID: String
        switch sessionPreamble(request, id: id, bodyIssues: bodyIssues + checker.issues) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        let date = now
        let updated: SessionRecord? = state.withLock { state in
            guard var session = state.sessions[sessionID], let names else { return nil }
            if let client { session.clientContext = client }
            if let llmContext { session.llmContext = .object(llmContext) }
            session.availableFunctionNames = names
            if let locale, !locale.trimmingCharacters(in: .whitespaces).isEmpty {
                session.locale = ChatLocalization.resolve([locale], fallback: session.locale)
            }
            session.lastActivityAt = date
            state.sessions[sessionID] = session
            return session
        }
        guard let session = updated else { return BackendReply.sessionNotFound }
        return BackendReply.json(
            200,
            .object([
                ("id", .string(session.id)), ("app_id", .string(configuration.appID)),
                ("client_context", WireJSON(stored: session.clientContext)),
                ("llm_context", WireJSON(stored: session.llmContext)),
                ("available_function_names", .array(session.availableFunctionNames.map(WireJSON.string))),
                ("locale", .string(session.locale)),
                ("last_activity_at", .string(PythonTime.pydantic(session.lastActivityAt))),
            ]))
    }

    /// `GET /v1/sessions/{id}/localization?locale=` (WireProtocol §4.7); stores the resolved locale.
    func localization(_ request: LoopbackRequest, id: String) -> LoopbackResponse {
        let sessionID: String
        switch sessionPreamble(request, id: id) {
        case .success(let canonical): sessionID = canonical
        case .failure(let failure): return failure.response
        }
        let requested = request.query["locale"]
        let resolved: String? = state.withLock { state in
            guard var session = state.sessions[sessionID] else { return nil }
            session.locale = ChatLocalization.resolve([requested], fallback: session.locale)
            state.sessions[sessionID] = session
            return session.locale
        }
        guard let resolved else { return BackendReply.sessionNotFound }
        let texts = ChatLocalization.texts(for: resolved)
        return BackendReply.json(
            200,
            .object([
                ("locale", .string(resolved)), ("chat_title", .string(texts.chatTitle)),
                ("message_placeholder", .string(texts.messagePlaceholder)),
                ("initial_message", .string(texts.initialMessage)),
            ]))
    }

    /// The `client` object: known keys only, string values within their limits, null members dropped.
    private func readClient(_ checker: inout FieldChecker) -> JSONValue? {
        guard let members = checker.object["client"], !members.isNull else { return nil }
        guard case .success(var nested) = FieldChecker.body(members, location: [.string("body"), .string("client")])
        else {
            checker.issue(
                "client", "model_attributes_type",
                "Input should be a valid dictionary or object to extract fields from", members)
            return nil
        }
        nested.forbidExtra(Set(Self.clientLimits.keys))
        var kept: JSONObject = [:]
        for (key, limit) in Self.clientLimits.sorted(by: { $0.key < $1.key }) {
            if let value = nested.string(key, maxLength: limit) { kept[key] = .string(value) }
        }
        checker.issues += nested.issues
        return .object(kept)
    }

    /// `llm_context`: at most 50 keys of at most 64 characters, compact JSON within 8192 UTF-8 bytes.
    private func readLLMContext(_ checker: inout FieldChecker) -> JSONObject? {
        guard let context = checker.dictionary("llm_context") else { return nil }
        let problem: String? =
            if context.count > 50 {
                "llm_context supports at most 50 top-level keys"
            } else if context.keys.contains(where: { $0.count > 64 }) {
                "llm_context keys must be at most 64 characters"
            } else if JSONValue.object(context).serializedBytes().count > 8192 {
                "llm_context must be at most 8192 bytes when serialized"
            } else { nil }
        if let problem {
            checker.issue(
                "llm_context", "value_error", "Value error, \(problem)", .object(context),
                ValidationIssue.valueErrorContext)
            return nil
        }
        return context
    }
}
