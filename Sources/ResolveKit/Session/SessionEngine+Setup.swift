import Foundation

extension SessionEngine {
    /// `GET /v1/sdk/compat`: blocked when this SDK's major is not supported or it is below the minimum; a 404
    /// (an older backend) passes.
    func checkCompatibility() async throws(SetupFailure) {
        guard let backend else { return }
        let compat: CompatibilityInfo?
        do {
            compat = try await backend.compatibility()
        } catch {
            throw Self.setupFailure(.compatibility, error)
        }
        guard let compat, !compat.supports(sdkVersion: ResolveKitDefaults.sdkVersion) else { return }
        throw SetupFailure.blocked(ResolveKitError(
            .unsupportedSDK,
            "This SDK (\(ResolveKitDefaults.sdkVersion)) is not supported by the backend (minimum "
                + "\(compat.minimumSDKVersion), majors \(compat.supportedSDKMajorVersions))"))
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
            throw Self.setupFailure(.registration, error)
        }
    }

    /// `POST /v1/sessions`, then the history or greeting, the cursor and the pending results.
    func openSession(reuse: Bool) async throws(SetupFailure) {
        guard let backend else { return }
        let request = sessionRequest(reuse: reuse)
        let response: SessionResponse
        do {
            response = try await backend.createSession(request)
        } catch {
            throw Self.setupFailure(.createSession, error)
        }
        let previousSessionID = session?.id
        adopt(response)
        if !connection.hasOpenedStream {
            // The backend answers: what is left is the stream's first connect, which its idle watchdog bounds.
            connection.lastConnectFailure = nil
            connectDeadline = max(connectDeadline, clock.elapsed + configuration.streamIdleTimeout + .seconds(5))
        }
        if previousSessionID != response.id { startNewSessionState() }
        let stored = store.loadSession()
        progress.cursor.restore(stored?.sessionID == response.id ? stored?.cursor : nil)
        persistSession()
        progress.replayGuard = nil
        progress.newestHandledEventTime = nil
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
        if response.reusedActiveSession {
            await loadHistory(response: response)
        } else if !response.initialMessage.isEmpty {
            output.append(ResolveKitChatMessage(id: "greeting-" + response.id, role: .assistant, text: response.initialMessage))
        }
        output.log("Session \(response.id) \(response.reusedActiveSession ? "reused" : "created"); cursor \(progress.cursor.value ?? "none")")
        output.emit(.sessionStarted(sessionID: response.id, reused: response.reusedActiveSession))
    }

    /// A different session than before: the old one's turn and its waiters end with it.
    private func startNewSessionState() {
        endTurnWaiters(ResolveKitError(.sessionGone, "The session ended before the turn finished"), except: turns.sendingRequestID)
        turns.reset()
        turnRecord = nil
        for waiter in waiting.asks { waiter.fulfill(true) }
        waiting.asks = []
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
            if progress.cursor.value == nil, let cutoff = ISO8601Timestamp.parse(response.lastActivityAt) {
                progress.replayGuard = ReplayGuard(cutoff: cutoff, turnInProgress: history.last?.role == "user")
            }
        } catch {
            output.log("Could not load the history: \(error)", level: .warning)
            if progress.cursor.value == nil, let cutoff = ISO8601Timestamp.parse(response.lastActivityAt) {
                progress.replayGuard = ReplayGuard(cutoff: cutoff, turnInProgress: false)
            }
        }
    }

    /// The names the session may call: the host's allow-list (or every function) intersected with the registry.
    func allowedFunctionNames() -> [String] {
        let registered = Set(registry.functionNames)
        return (configuration.availableFunctionNamesProvider?() ?? registry.functionNames).filter { registered.contains($0) }
    }

    /// The `POST /v1/sessions` body with the current context: device, client, model context, allow-list, locales.
    func sessionRequest(reuse: Bool) -> SessionCreateRequest {
        SessionCreateRequest(
            deviceID: deviceID(),
            client: HostClientInfo.make(appVersion: configuration.appVersion, appBuild: configuration.appBuild),
            llmContext: configuration.llmContextProvider(), availableFunctionNames: allowedFunctionNames(),
            locale: configuration.resolvedLocale, preferredLocales: configuration.preferredLocalesProvider?() ?? [],
            reuseActiveSession: reuse)
    }

    func deviceID() -> String {
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
            try store.saveSession(.init(sessionID: session.id, cursor: progress.cursor.value))
            progress.cursor.written(now: clock.elapsed)
        } catch {
            output.log("Could not persist the session: \(error)", level: .warning)
        }
    }

    /// Saves the outbox's changes. A failure is reported (``ResolveKitError/Code/stateStore``) but does not stop
    /// the runtime: the journal in memory still keeps this process from running anything twice.
    func persistJournal() {
        do throws(ResolveKitError) {
            try outbox.save()
        } catch {
            output.log("Could not save the call journal: \(error)", level: .error)
            output.update { $0.lastError = error }
            output.emit(.error(error))
        }
    }

    /// What a failed setup request means, from ``BackendFailurePolicy``.
    static func setupFailure(_ endpoint: BackendFailurePolicy.Endpoint, _ error: BackendError) -> SetupFailure {
        switch BackendFailurePolicy.action(endpoint, error) {
        case .block(let code): return .blocked(ResolveKitError(code, Self.blockMessage(code, error), underlying: error))
        case .retry: return .retry(error)
        default: return .failed(ResolveKitError(.backend, "The backend refused the request: \(error)", underlying: error))
        }
    }

    /// The words for a stop that needs a change on this side.
    static func blockMessage(_ code: ResolveKitError.Code, _ error: BackendError) -> String {
        switch code {
        case .apiKeyRejected: "The backend rejected the API key (\(error)); check RESOLVEKIT_API_KEY or the key file"
        case .chatUnavailable: "Chat is unavailable for this app (403 chat_unavailable); it is switched off on the backend"
        default: error.description
        }
    }

    /// `PATCH /context` with the current client description, model context, allow-list and locale.
    func refreshSessionContext() async throws(BackendError) {
        guard let backend, let session else {
            throw BackendError(code: .transport, endpoint: "PATCH /context", message: "Not connected")
        }
        let names = allowedFunctionNames()
        let patch = SessionContextPatch(
            client: HostClientInfo.make(appVersion: configuration.appVersion, appBuild: configuration.appBuild),
            llmContext: configuration.llmContextProvider(), availableFunctionNames: names, locale: configuration.resolvedLocale)
        try await backend.patchContext(session, patch)
        allowedNames = Set(names)
        output.log("Refreshed the session context")
    }

    /// `GET /localization`: stores the locale on the session and takes its texts.
    func setLocale(_ locale: String?) async throws(BackendError) {
        guard let backend, let session else {
            throw BackendError(code: .transport, endpoint: "GET /localization", message: "Not connected")
        }
        let localization = try await backend.localization(session, locale: locale)
        output.update { snapshot in
            snapshot.currentLocale = localization.locale
            snapshot.chatTitle = localization.chatTitle
            snapshot.messagePlaceholder = localization.messagePlaceholder
        }
    }
}
