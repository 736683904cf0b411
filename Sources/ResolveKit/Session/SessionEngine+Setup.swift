import Foundation

extension SessionEngine {
    /// `GET /v1/sdk/compat`: blocked when this SDK's major is not supported or it is below the minimum; a 404
    /// (an older backend) passes.
    func checkCompatibility() async throws(SetupFailure) {
        guard let backend else { return }
        do {
            guard let compat = try await backend.compatibility() else { return }
            guard compat.supports(sdkVersion: ResolveKitDefaults.sdkVersion) else {
                throw SetupFailure.blocked(
                    "This SDK (\(ResolveKitDefaults.sdkVersion)) is not supported by the backend (minimum "
                        + "\(compat.minimumSDKVersion), majors \(compat.supportedSDKMajorVersions))")
            }
        } catch let error as BackendError {
            throw Self.setupFailure(error)
        } catch let error as SetupFailure {
            throw error
        } catch {
            throw SetupFailure.retry("\(error)")
        }
    }

    /// `PUT /v1/functions/bulk` with every registered function. Skipped when none are registered, because a
    /// full replace with nothing would deactivate every function of the app (§4.3).
    func registerFunctions() async throws(SetupFailure) {
        guard let backend else { return }
        guard !registry.entries.isEmpty else {
            output.log("No functions registered; skipping registration so the app's functions stay active")
            return
        }
        do {
            try await backend.registerFunctions(registry.bulkRegistration())
            output.log("Registered \(registry.entries.count) functions")
        } catch {
            throw Self.setupFailure(error)
        }
    }

    /// `POST /v1/sessions`, then the history or greeting, the cursor and the pending results.
    func openSession(reuse: Bool) async throws(SetupFailure) {
        guard let backend else { return }
        let request = try sessionRequest(reuse: reuse)
        let response: SessionResponse
        do {
            response = try await backend.createSession(request)
        } catch {
            throw Self.setupFailure(error)
        }
        adopt(response)
        let stored = store.loadSession()
        cursor = stored?.sessionID == response.id ? stored?.cursor : nil
        persistSession()
        replayGuard = nil
        newestHandledEventTime = nil
        let isFirstSessionOfProcess = output.read().sessionID == nil
        output.update { snapshot in
            snapshot.sessionID = response.id
            snapshot.currentLocale = response.locale
            snapshot.chatTitle = response.chatTitle
            snapshot.messagePlaceholder = response.messagePlaceholder
            snapshot.isTurnInProgress = false
            snapshot.activeTurnID = nil
            if !response.reusedActiveSession || !isFirstSessionOfProcess { snapshot.messages = [] }
        }
        activeTurnID = nil
        pendingRequestID = nil
        if response.reusedActiveSession {
            await loadHistory(response: response)
        } else if !response.initialMessage.isEmpty {
            output.append(ResolveKitChatMessage(id: "greeting-" + response.id, role: .assistant, text: response.initialMessage))
        }
        output.log("Session \(response.id) \(response.reusedActiveSession ? "reused" : "created"); cursor \(cursor ?? "none")")
        output.emit(.sessionStarted(sessionID: response.id, reused: response.reusedActiveSession))
    }

    /// Takes over a session response: id, token, allow-list.
    func adopt(_ response: SessionResponse) {
        session = SessionAccess(id: response.id, token: CapabilityToken(response.chatCapabilityToken))
        sessionResponse = response
        allowedNames = Set(response.availableFunctionNames).intersection(registry.functionNames)
    }

    /// On a reused session: the transcript from `GET /messages`; with no stored cursor, a guard so the replayed
    /// stream does not re-run old tool calls or repeat old answers (§10.9).
    func loadHistory(response: SessionResponse) async {
        guard let backend, let session else { return }
        do {
            let history = try await backend.messages(session)
            let known = Set(output.read().messages.map(\.id))
            for message in history where !known.contains(message.id) {
                guard let text = message.content, !text.isEmpty else { continue }
                let role = ResolveKitChatMessage.Role(rawValue: message.role) ?? .assistant
                output.append(ResolveKitChatMessage(id: message.id, role: role, text: text))
            }
            if cursor == nil, let cutoff = ISO8601Timestamp.parse(response.lastActivityAt) {
                replayGuard = ReplayGuard(cutoff: cutoff, turnInProgress: history.last?.role == "user")
            }
        } catch {
            output.log("Could not load the history: \(error)", level: .warning)
            if cursor == nil, let cutoff = ISO8601Timestamp.parse(response.lastActivityAt) {
                replayGuard = ReplayGuard(cutoff: cutoff, turnInProgress: false)
            }
        }
    }

    /// The names the session may call: the host's allow-list (or every function) intersected with the registry.
    func allowedFunctionNames() -> [String] {
        let registered = Set(registry.functionNames)
        return (configuration.availableFunctionNamesProvider?() ?? registry.functionNames).filter { registered.contains($0) }
    }

    /// The `POST /v1/sessions` body with the current context: device, client, model context, allow-list, locales.
    func sessionRequest(reuse: Bool) throws(SetupFailure) -> SessionCreateRequest {
        SessionCreateRequest(
            deviceID: try deviceID(),
            client: HostClientInfo.make(appVersion: configuration.appVersion, appBuild: configuration.appBuild),
            llmContext: configuration.llmContextProvider(), availableFunctionNames: allowedFunctionNames(),
            locale: configuration.resolvedLocale, preferredLocales: configuration.preferredLocalesProvider?() ?? [],
            reuseActiveSession: reuse)
    }

    func deviceID() throws(SetupFailure) -> String {
        if let provided = configuration.deviceIDProvider(), !provided.isEmpty { return provided }
        if let stored = store.loadDeviceID() { return stored }
        let generated = UUIDText.make()
        do {
            try store.saveDeviceID(generated)
        } catch {
            output.log("Could not persist the device id: \(error)", level: .warning)
        }
        return generated
    }

    func persistSession() {
        guard let session else { return }
        do {
            try store.saveSession(.init(sessionID: session.id, cursor: cursor))
        } catch {
            output.log("Could not persist the session: \(error)", level: .warning)
        }
    }

    func persistJournal() {
        do {
            try store.appendJournal(&journal)
        } catch {
            output.log("Could not persist the call journal: \(error)", level: .warning)
        }
    }

    static func setupFailure(_ error: BackendError) -> SetupFailure {
        switch error.status {
        case 401?: return .blocked("The backend rejected the API key (401 \(error.serverError?.description ?? ""))")
        case 403? where error.isChatUnavailable: return .blocked("Chat is unavailable for this app (403 chat_unavailable)")
        case 422?: return .failed("The backend rejected a request as invalid: \(error)")
        default: return error.isTransient || error.status == nil ? .retry(error.description) : .failed(error.description)
        }
    }
}

/// Decides which replayed events to ignore when a reused session is opened without a stored cursor (§10.9):
/// events emitted before the session was reopened repeat what the history already shows, and a tool call from
/// then is run only if a turn is still in progress and the server may still be waiting for it.
struct ReplayGuard: Sendable {
    let cutoff: Date
    let turnInProgress: Bool

    func isStale(_ envelope: EventEnvelope, timeoutSeconds: Int? = nil) -> Bool {
        guard let emitted = ISO8601Timestamp.parse(envelope.timestamp), emitted < cutoff else { return false }
        guard let timeoutSeconds else { return true }
        return !turnInProgress || emitted.addingTimeInterval(Double(timeoutSeconds)) <= cutoff
    }
}
