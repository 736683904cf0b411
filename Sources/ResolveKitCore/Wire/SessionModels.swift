/// The client description sent with a session (PROTOCOL.md §4.5; all members optional, limits per field).
public struct ClientInfo: WireDecodable, WireEncodable, Hashable {
    /// `linux` for this SDK (≤32).
    public var platform: String?
    /// The OS name, e.g. `Debian GNU/Linux` (≤32).
    public var osName: String?
    /// A plain dotted version such as `12` or `24.04` (≤64; kernel strings are not PEP 440 versions, §7.7).
    public var osVersion: String?
    /// The host application's version (≤64).
    public var appVersion: String?
    /// The host application's build (≤64).
    public var appBuild: String?
    /// The SDK name (≤64).
    public var sdkName: String?
    /// The SDK version (≤64).
    public var sdkVersion: String?

    /// Creates a client description.
    public init(
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
    public init(json: JSONValue) throws(WireDecodingError) {
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
    public var json: JSONValue {
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
public struct SessionCreateRequest: WireEncodable, Hashable {
    /// The stable device id used for reuse.
    public var deviceID: String?
    /// The client description.
    public var client: ClientInfo?
    /// Context for the model (≤50 keys, ≤8192 bytes compact).
    public var llmContext: JSONObject
    /// The functions this session may call (required by the backend).
    public var availableFunctionNames: [String]
    /// The requested locale.
    public var locale: String?
    /// Fallback locales in order.
    public var preferredLocales: [String]
    /// Whether to reuse the device's active session.
    public var reuseActiveSession: Bool

    /// Creates the body.
    public init(
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
    public var json: JSONValue {
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
public struct SessionResponse: WireDecodable, Hashable {
    /// The session id (UUID).
    public var id: String
    /// The app id.
    public var appID: String
    /// The device id stored with the session.
    public var deviceID: String?
    /// The functions the session may call.
    public var availableFunctionNames: [String]
    /// The resolved locale.
    public var locale: String
    /// The localized chat title.
    public var chatTitle: String
    /// The localized composer placeholder.
    public var messagePlaceholder: String
    /// The greeting (stored as the first assistant message of a new session).
    public var initialMessage: String
    /// `active` for a usable session.
    public var status: String
    /// The server's time of the create or reuse (ISO-8601 as sent); events older than this were emitted before it.
    public var lastActivityAt: String
    /// The root-relative events path, e.g. `/v1/sessions/{id}/events`.
    public var eventsURL: String
    /// The capability token for session-scoped calls. Never log it.
    public var chatCapabilityToken: String
    /// Whether an existing session was reused.
    public var reusedActiveSession: Bool

    /// Reads the response.
    public init(json: JSONValue) throws(WireDecodingError) {
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
public struct SessionContextPatch: WireEncodable, Hashable {
    /// Replaces the stored client description when set.
    public var client: ClientInfo?
    /// Replaces the model context when set (`[:]` clears).
    public var llmContext: JSONObject?
    /// Always replaces the allow-list (required).
    public var availableFunctionNames: [String]
    /// Changes the locale when set.
    public var locale: String?

    /// Creates the body.
    public init(client: ClientInfo? = nil, llmContext: JSONObject? = nil, availableFunctionNames: [String], locale: String? = nil) {
        self.client = client
        self.llmContext = llmContext
        self.availableFunctionNames = availableFunctionNames
        self.locale = locale
    }

    /// The JSON body.
    public var json: JSONValue {
        var object: JSONObject = ["available_function_names": .array(availableFunctionNames.map(JSONValue.string))]
        object.setIfPresent("client", client?.json)
        object.setIfPresent("llm_context", llmContext.map(JSONValue.object))
        object.setIfPresent("locale", locale.map(JSONValue.string))
        return .object(object)
    }
}

/// `GET /v1/sessions/{id}/localization` response (§4.7).
public struct LocalizationResponse: WireDecodable, Hashable {
    /// The resolved locale, now stored as the session's.
    public var locale: String
    /// The localized chat title.
    public var chatTitle: String
    /// The localized composer placeholder.
    public var messagePlaceholder: String
    /// The localized greeting.
    public var initialMessage: String

    /// Reads the response.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        locale = try reader.string("locale")
        chatTitle = try reader.string("chat_title")
        messagePlaceholder = try reader.string("message_placeholder")
        initialMessage = try reader.string("initial_message")
    }
}

/// One transcript entry of `GET /v1/sessions/{id}/messages` (§4.8).
public struct SessionMessage: WireDecodable, Hashable {
    /// The message id.
    public var id: String
    /// Its position in the session.
    public var sequenceNumber: Int
    /// `user`, `assistant` or `human_agent`.
    public var role: String
    /// The text, if any.
    public var content: String?
    /// When it was stored (ISO-8601 as sent).
    public var createdAt: String

    /// Reads a message.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        id = try reader.string("id")
        sequenceNumber = try reader.int("sequence_number")
        role = try reader.string("role")
        content = try reader.optionalString("content")
        createdAt = try reader.optionalString("created_at") ?? ""
    }
}
