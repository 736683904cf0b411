/// One function as `PUT /v1/functions/bulk` registers it (§4.3).
public struct FunctionRegistration: WireDecodable, WireEncodable, Hashable {
    /// Where a function comes from.
    public enum Source: String, Sendable, Hashable {
        /// Declared directly in the host's configuration.
        case appInline = "app_inline"
        /// Part of a ``ResolveKitFunctionPack``.
        case playbookPack = "playbook_pack"
    }

    /// The tool name.
    public var name: String
    /// The description the model reads (≤1000).
    public var description: String
    /// The JSON Schema of the arguments.
    public var parametersSchema: JSONObject
    /// Seconds the server waits for a result (1–300); omitted means 30.
    public var timeoutSeconds: Int?
    /// Whether calls need approval (copied into every `tool_call_request`).
    public var requiresApproval: Bool
    /// Eligibility gates such as `{"platforms": ["linux"]}`.
    public var availability: JSONObject?
    /// Inline or pack.
    public var source: Source
    /// The pack's name for pack functions.
    public var packName: String?

    /// Creates a registration.
    public init(
        name: String, description: String, parametersSchema: JSONObject, timeoutSeconds: Int?,
        requiresApproval: Bool, availability: JSONObject?, source: Source, packName: String?
    ) {
        self.name = name
        self.description = description
        self.parametersSchema = parametersSchema
        self.timeoutSeconds = timeoutSeconds
        self.requiresApproval = requiresApproval
        self.availability = availability
        self.source = source
        self.packName = packName
    }

    /// Reads a registration (or a `FunctionOut` item of the response; extra members are ignored).
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        name = try reader.string("name")
        description = try reader.optionalString("description") ?? ""
        parametersSchema = try reader.optionalObject("parameters_schema") ?? [:]
        timeoutSeconds = try reader.optionalInt("timeout_seconds")
        requiresApproval = try reader.optionalBool("requires_approval") ?? true
        availability = try reader.optionalObject("availability")
        let sourceName = try reader.optionalString("source") ?? Source.appInline.rawValue
        guard let source = Source(rawValue: sourceName) else {
            throw WireDecodingError(path: "$.source", message: "expected app_inline or playbook_pack, got \(sourceName)")
        }
        self.source = source
        packName = try reader.optionalString("pack_name")
    }

    /// The JSON as the iOS SDK sends it: `timeout_seconds`, `availability` and `pack_name` omitted when absent.
    public var json: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "description": .string(description), "parameters_schema": .object(parametersSchema),
            "requires_approval": .bool(requiresApproval), "source": .string(source.rawValue),
        ]
        object.setIfPresent("timeout_seconds", timeoutSeconds.map { .number(Double($0)) })
        object.setIfPresent("availability", availability.map(JSONValue.object))
        object.setIfPresent("pack_name", packName.map(JSONValue.string))
        return .object(object)
    }
}

/// `PUT /v1/functions/bulk` body: the complete set of the app's functions (full replace, ≤512).
public struct FunctionBulkSync: WireEncodable, Hashable {
    /// The functions; every function of the app not listed becomes inactive.
    public var functions: [FunctionRegistration]

    /// Creates the body.
    public init(functions: [FunctionRegistration]) { self.functions = functions }

    /// The JSON body.
    public var json: JSONValue { ["functions": .array(functions.map(\.json))] }
}
