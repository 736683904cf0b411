/// One function as `PUT /v1/functions/bulk` registers it (§4.3).
package struct FunctionRegistration: WireDecodable, WireEncodable, Hashable {
    /// Where a function comes from.
    package enum Source: String, Sendable, Hashable {
        /// Declared directly in the host's configuration.
        case appInline = "app_inline"
        /// Part of a ``ResolveKitFunctionPack``.
        case playbookPack = "playbook_pack"
    }

    /// The tool name.
    package var name: String
    /// The description the model reads (≤1000).
    package var description: String
    /// The JSON Schema of the arguments.
    package var parametersSchema: JSONObject
    /// Seconds the server waits for a result (1–300); omitted means 30.
    package var timeoutSeconds: Int?
    /// Whether calls need approval (copied into every `tool_call_request`).
    package var requiresApproval: Bool
    /// Eligibility gates such as `{"platforms": ["linux"]}`.
    package var availability: JSONObject?
    /// Inline or pack.
    package var source: Source
    /// The pack's name for pack functions.
    package var packName: String?

    /// Creates a registration.
    package init(
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
    package init(json: JSONValue) throws(WireDecodingError) {
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
    package var json: JSONValue {
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
package struct FunctionBulkSync: WireEncodable, Hashable {
    /// The functions; every function of the app not listed becomes inactive.
    package var functions: [FunctionRegistration]

    /// Creates the body.
    package init(functions: [FunctionRegistration]) { self.functions = functions }

    /// The JSON body.
    package var json: JSONValue { ["functions": .array(functions.map(\.json))] }
}
