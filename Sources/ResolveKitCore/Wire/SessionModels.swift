/// The client description sent with a session (WireProtocol §4.5; all members optional, limits per field).
package struct ClientInfo: WireDecodable, WireEncodable, Hashable {
    /// `linux` for this SDK (≤32).
    package var platform: String?
    /// The OS name, e.g. `Debian GNU/Linux` (≤32).
    package var osName: String?
    /// A plain dotted version such as `12` or `24.04` (≤64; kernel strings are not PEP 440 versions, §7.7).
    package var osVersion: String?
    /// The host application's version (≤64).
    package var appVersion: String?
    /// The host application's build (≤64).
    package var appBuild: String?
    /// The SDK name (≤64).
    package var sdkName: String?
    /// The SDK version (≤64).
    package var sdkVersion: String?

    /// Creates a client description.
    package init(
        platform: String? = nil, osName: String? = nil, osVersion: String? = nil, appVersion: String? = nil,
        appBuild: String? = nil, sdkName: String? = nil, sdkVersion: String? = nil
    ) {
        self.platform = platform
        self.osName = osName
        self.osVersion = osVersion
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.sdkName = sdkName
        self.sdkVersion = sdkVersion
    }

    /// Reads a stored client context.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        platform = try reader.optionalString("platform")
        osName = try reader.optionalString("os_name")
        osVersion = try reader.optionalString("os_version")
        appVersion = try reader.optionalString("app_version")
        appBuild = try reader.optionalString("app_build")
        sdkName = try reader.optionalString("sdk_name")
        sdkVersion = try reader.optionalString("sdk_version")
    }

    /// The JSON, omitting absent members.
    package var json: JSONValue {
        var object: JSONObject = [:]
        object.setIfPresent("platform", platform.map(JSONValue.string))
        object.setIfPresent("os_name", osName.map(JSONValue.string))
        object.setIfPresent("os_version", osVersion.map(JSONValue.string))
        object.setIfPresent("app_version", appVersion.map(JSONValue.string))
        object.setIfPresent("app_build", appBuild.map(JSONValue.string))
        object.setIfPresent("sdk_name", sdkName.map(JSONValue.string))
        object.setIfPresent("sdk_version", sdkVersion.map(JSONValue.string))
        return .object(object)
    }
}

/// `POST /v1/sessions` body: create a session or reuse the device's active one (§4.5).
package struct SessionCreateRequest: WireEncodable, Hashable {
    /// The stable device id used for reuse.
    package var deviceID: String?
    /// The client description.
    package var client: ClientInfo?
    /// Context for the model (≤50 keys, ≤8192 bytes compact).
    package var llmContext: JSONObject
    /// The functions this session may call (required by the backend).
    package var availableFunctionNames: [String]
    /// The requested locale.
    package var locale: String?
    /// Fallback locales in order.
    package var preferredLocales: [String]
    /// Whether to reuse the device's active session.
    package var reuseActiveSession: Bool

    /// Creates the body.
    package init(
        deviceID: String?, client: ClientInfo?, llmContext: JSONObject = [:], availableFunctionNames: [String],
        locale: String? = nil, preferredLocales: [String] = [], reuseActiveSession: Bool = true
    ) {
        self.deviceID = deviceID
        self.client = client
        self.llmContext = llmContext
        self.availableFunctionNames = availableFunctionNames
        self.locale = locale
        self.preferredLocales = preferredLocales
        self.reuseActiveSession = reuseActiveSession
    }

    /// The JSON body.
    package var json: JSONValue {
        var object: JSONObject = [
            "llm_context": .object(llmContext),
            "available_function_names": .array(availableFunctionNames.map(JSONValue.string)),
            "preferred_locales": .array(preferredLocales.map(JSONValue.string)),
            "reuse_active_session": .bool(reuseActiveSession),
        ]
        object.setIfPresent("device_id", deviceID.map(JSONValue.string))
        object.setIfPresent("client", client?.json)
        object.setIfPresent("locale", locale.map(JSONValue.string))
        return .object(object)
    }
}

/// `POST /v1/sessions` response (`SessionOut`, §4.5).
package struct SessionResponse: WireDecodable, Hashable {
    /// The session id (UUID).
    package var id: String
    /// The app id.
    package var appID: String
    /// The device id stored with the session.
    package var deviceID: String?
    /// The functions the session may call.
    package var availableFunctionNames: [String]
    /// The resolved locale.
    package var locale: String
    /// The localized chat title.
    package var chatTitle: String
    /// The localized composer placeholder.
    package var messagePlaceholder: String
    /// The greeting (stored as the first assistant message of a new session).
    package var initialMessage: String
    /// `active` for a usable session.
    package var status: String
    /// The server's time of the create or reuse (ISO-8601 as sent); events older than this were emitted before it.
    package var lastActivityAt: String
    /// The root-relative events path, e.g. `/v1/sessions/{id}/events`.
    package var eventsURL: String
    /// The capability token for session-scoped calls. Never log it.
    package var chatCapabilityToken: String
    /// Whether an existing session was reused.
    package var reusedActiveSession: Bool

    /// Reads the response.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        id = try reader.string("id")
        appID = try reader.optionalString("app_id") ?? ""
        deviceID = try reader.optionalString("device_id")
        availableFunctionNames = try reader.value("available_function_names") == nil ? [] : reader.strings("available_function_names")
        locale = try reader.optionalString("locale") ?? "en"
        chatTitle = try reader.optionalString("chat_title") ?? "Support Chat"
        messagePlaceholder = try reader.optionalString("message_placeholder") ?? "Message"
        initialMessage = try reader.optionalString("initial_message") ?? ""
        status = try reader.optionalString("status") ?? "active"
        lastActivityAt = try reader.optionalString("last_activity_at") ?? ""
        eventsURL = try reader.optionalString("events_url") ?? "/v1/sessions/\(id)/events"
        chatCapabilityToken = try reader.string("chat_capability_token")
        reusedActiveSession = try reader.optionalBool("reused_active_session") ?? false
    }
}

/// `PATCH /v1/sessions/{id}/context` body (§4.6): `nil` members keep the stored value.
package struct SessionContextPatch: WireEncodable, Hashable {
    /// Replaces the stored client description when set.
    package var client: ClientInfo?
    /// Replaces the model context when set (`[:]` clears).
    package var llmContext: JSONObject?
    /// Always replaces the allow-list (required).
    package var availableFunctionNames: [String]
    /// Changes the locale when set.
    package var locale: String?

    /// Creates the body.
    package init(client: ClientInfo? = nil, llmContext: JSONObject? = nil, availableFunctionNames: [String], locale: String? = nil) {
        self.client = client
        self.llmContext = llmContext
        self.availableFunctionNames = availableFunctionNames
        self.locale = locale
    }

    /// The JSON body.
    package var json: JSONValue {
        var object: JSONObject = ["available_function_names": .array(availableFunctionNames.map(JSONValue.string))]
        object.setIfPresent("client", client?.json)
        object.setIfPresent("llm_context", llmContext.map(JSONValue.object))
        object.setIfPresent("locale", locale.map(JSONValue.string))
        return .object(object)
    }
}

/// `GET /v1/sessions/{id}/localization` response (§4.7).
package struct LocalizationResponse: WireDecodable, Hashable {
    /// The resolved locale, now stored as the session's.
    package var locale: String
    /// The localized chat title.
    package var chatTitle: String
    /// The localized composer placeholder.
    package var messagePlaceholder: String
    /// The localized greeting.
    package var initialMessage: String

    /// Reads the response.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        locale = try reader.string("locale")
        chatTitle = try reader.string("chat_title")
        messagePlaceholder = try reader.string("message_placeholder")
        initialMessage = try reader.string("initial_message")
    }
}

/// One transcript entry of `GET /v1/sessions/{id}/messages` (§4.8).
package struct SessionMessage: WireDecodable, Hashable {
    /// The message id.
    package var id: String
    /// Its position in the session.
    package var sequenceNumber: Int
    /// `user`, `assistant` or `human_agent`.
    package var role: String
    /// The text, if any.
    package var content: String?
    /// When it was stored (ISO-8601 as sent).
    package var createdAt: String

    /// Reads a message.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        id = try reader.string("id")
        sequenceNumber = try reader.int("sequence_number")
        role = try reader.string("role")
        content = try reader.optionalString("content")
        createdAt = try reader.optionalString("created_at") ?? ""
    }
}
