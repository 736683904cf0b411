extension SessionEngine {
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
