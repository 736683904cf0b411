import Synchronization
extension SessionDriver {
    /// Sends one request the machine asked for, with the body built from the configuration's providers now, in
    /// `trace`.
    func request(
        _ call: BackendCall, access: SessionAccess?, trace: RequestTrace
    ) async -> Result<BackendAnswer, BackendFailure> {
        guard let backend = core.withLock({ $0.backend }) else { return Self.unsent(call, because: "No API key") }
        guard let (endpoint, work) = work(for: call, on: backend, access: access, trace: trace) else {
            return Self.unsent(call, because: "Not connected")
        }
        do {
            return .success(try await work())
        } catch {
            return .failure(Self.failure(error, of: endpoint))
        }
    }

    /// A request that was not sent: a transport failure naming `call`.
    @inline(never)
    private static func unsent(_ call: BackendCall, because message: String) -> Result<BackendAnswer, BackendFailure> {
        .failure(.backend(BackendError(code: .transport, endpoint: "\(call)", message: message), .sessionRead))
    }

    /// What `error` thrown by a request's work means for the machine.
    @inline(never)
    private static func failure(_ error: any Error, of endpoint: BackendFailurePolicy.Endpoint) -> BackendFailure {
        switch error {
        case let failure as BackendFailure: failure
        case let error as BackendError: .backend(error, endpoint)
        default: .backend(BackendError(code: .transport, endpoint: "\(endpoint)", message: "\(error)"), endpoint)
        }
    }

    /// What sending `call` does, and the endpoint its failures are about; `nil` when the call needs the session and
    /// there is none.
    ///
    /// Closures, so that ``request(_:access:trace:)`` awaits at one place: a task allocates an async function's
    /// frame whole, with room for every path, and a frame with each request's work in it took 24 KiB from `malloc`
    /// for every result's `POST`.
    @inline(never)
    private func work(
        for call: BackendCall, on backend: BackendClient, access: SessionAccess?, trace: RequestTrace
    ) -> (BackendFailurePolicy.Endpoint, () async throws -> BackendAnswer)? {
        switch call {
        case .register:
            return (.registration, { [self] in try await register(backend) })
        case .createSession(let reuse):
            return (.createSession, { [self] in
                .session(try await backend.createSession(await sessionRequest(reuse: reuse), trace: trace))
            })
        case .history:
            guard let access else { return nil }
            return (.sessionRead, { .history(try await backend.messages(access, trace: trace)) })
        case .message(let text, let requestID):
            guard let access else { return nil }
            return (.sendMessage, { [parts] in
                let body = MessageSubmitRequest(
                    text: text, requestID: requestID, locale: parts.output.read().currentLocale)
                return .accepted(turnID: try await backend.submitMessage(access, body, trace: trace).turnID)
            })
        case .toolResult(let submission):
            guard let access else { return nil }
            return (.toolResults, {
                let answer = try await backend.submitToolResult(access, submission, trace: trace)
                return .delivered(deduplicated: answer.deduplicated)
            })
        case .context:
            guard let access else { return nil }
            return (.sessionRead, { [self] in
                let names = allowedFunctionNames()
                let configuration = parts.configuration
                let patch = SessionContextPatch(
                    client: HostClientInfo.make(appVersion: configuration.appVersion, appBuild: configuration.appBuild),
                    llmContext: configuration.llmContextProvider(), availableFunctionNames: names,
                    locale: configuration.resolvedLocale)
                try await backend.patchContext(access, patch)
                return .contextRefreshed(names: names)
            })
        case .feedback(let rating, let comment):
            guard let access else { return nil }
            return (.sessionRead, {
                let body = FeedbackSubmission(rating: rating, comment: comment)
                return .feedback(alreadyGiven: try await backend.submitFeedback(access, body))
            })
        case .localization(let locale):
            guard let access else { return nil }
            return (.sessionRead, { [parts] in
                let locale = locale ?? parts.configuration.resolvedLocale
                return .localization(try await backend.localization(access, locale: locale))
            })
        }
    }

    /// `GET /v1/sdk/compat`, then `PUT /v1/functions/bulk` with every registered function: at every setup for a
    /// runtime of its own, once for all of a host's sessions. A 404 from the compatibility check (an older backend)
    /// passes; registration is skipped with no functions, as a full replace with nothing would deactivate every
    /// function of the app (§4.3). Unless the configuration ``ResolveKitConfiguration/replacesOtherFunctions``,
    /// `GET /v1/functions` comes first, and a registry that lacks functions the backend lists (another host's of the
    /// fleet) is refused with ``BackendError/Code/functionSetConflict`` naming them.
    /// - Throws: ``BackendFailure`` when a step fails or the backend does not support this SDK.
    private func register(_ backend: BackendClient) async throws(BackendFailure) -> BackendAnswer {
        let work: @Sendable () async -> BackendFailure? = { [parts] in
            do throws(BackendError) {
                if let compat = try await backend.compatibility(),
                    !compat.supports(sdkVersion: ResolveKitDefaults.sdkVersion)
                {
                    return .unsupported(minimum: compat.minimumSDKVersion, majors: compat.supportedSDKMajorVersions)
                }
            } catch {
                return .backend(error, .compatibility)
            }
            let registry = parts.runner.dispatcher.registry
            guard !registry.entries.isEmpty else {
                parts.output.log("No functions registered; skipping registration so the app's functions stay active")
                return nil
            }
            if !parts.configuration.replacesOtherFunctions {
                do throws(BackendError) {
                    if let conflict = Self.fleetConflict(registry, active: try await backend.activeFunctionNames()) {
                        return .backend(conflict, .registration)
                    }
                } catch {
                    return .backend(error, .registration)
                }
            }
            do throws(BackendError) {
                try await backend.registerFunctions(registry.bulkRegistration())
                parts.output.log("Registered \(registry.entries.count) functions")
                return nil
            } catch {
                return .backend(error, .registration)
            }
        }
        let failure = if let registration = parts.registration { await registration.ensure(work) } else { await work() }
        if let failure { throw failure }
        return .registered
    }

    /// The refusal when registering `registry` (a full replace of the app's functions) would deactivate functions
    /// the backend lists as `active`; `nil` when it would not, or the backend does not list them.
    static func fleetConflict(_ registry: ResolveKitRegistry, active: [String]?) -> BackendError? {
        guard let active else { return nil }
        let ours = Set(registry.functionNames)
        // The backend's own tools (§4.3) are never the host's to register.
        let removed = Set(active).subtracting(ours).subtracting(["kb_search", "escalate_to_human"]).sorted()
        guard !removed.isEmpty else { return nil }
        let added = ours.subtracting(active).sorted()
        func list(_ names: [String]) -> String {
            names.prefix(20).joined(separator: ", ") + (names.count > 20 ? " and \(names.count - 20) more" : "")
        }
        return BackendError(
            code: .functionSetConflict, endpoint: "PUT /v1/functions/bulk",
            message: "Registering this host's \(ours.count) functions would deactivate \(removed.count) that the "
                + "backend lists and this host does not register: \(list(removed))"
                + (added.isEmpty ? "" : " (and would add \(list(added)))")
                + ". Registration replaces the app's whole set: register them in this host too (every host of a "
                + "fleet registers the same functions), or set replacesOtherFunctions to replace them")
    }

    /// The names the session may call: the host's allow-list (or every function) intersected with the registry.
    private func allowedFunctionNames() -> [String] {
        let registry = parts.runner.dispatcher.registry
        let registered = Set(registry.functionNames)
        return (parts.configuration.availableFunctionNamesProvider?() ?? registry.functionNames)
            .filter { registered.contains($0) }
    }

    /// The `POST /v1/sessions` body with the current context: device, client, model context, allow-list, locales.
    private func sessionRequest(reuse: Bool) async -> SessionCreateRequest {
        let configuration = parts.configuration
        return SessionCreateRequest(
            deviceID: await deviceID(),
            client: HostClientInfo.make(appVersion: configuration.appVersion, appBuild: configuration.appBuild),
            llmContext: configuration.llmContextProvider(), availableFunctionNames: allowedFunctionNames(),
            locale: configuration.resolvedLocale, preferredLocales: configuration.preferredLocalesProvider?() ?? [],
            reuseActiveSession: reuse)
    }

    /// The provider's device id, else the stored one, else a new one, stored.
    private func deviceID() async -> String {
        if let provided = parts.configuration.deviceIDProvider(), !provided.isEmpty { return provided }
        let generated = UUIDText.make()
        do {
            return try await parts.store.deviceID(orStore: generated)
        } catch {
            parts.output.log("Could not persist the device id: \(error)", level: .warning)
            return generated
        }
    }
}
