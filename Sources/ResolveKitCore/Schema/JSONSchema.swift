/// The subset of JSON Schema used for tool parameters, as a value.
///
/// Build one in code or from a ``JSONObject`` (``init(jsonObject:)``), render it with ``jsonObject``, and check
/// arguments with ``validate(_:)``. Keywords outside the subset are ignored when reading.
public struct JSONSchema: Sendable, Hashable {
    /// A JSON Schema primitive type.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// A string.
        case string
        /// Any number.
        case number
        /// A whole number.
        case integer
        /// `true` or `false`.
        case boolean
        /// An object.
        case object
        /// An array.
        case array
        /// `null`.
        case null
    }

    /// What an object allows beyond its declared properties.
    public indirect enum AdditionalProperties: Sendable, Hashable {
        /// `true` allows any extra member, `false` none.
        case allowed(Bool)
        /// Every extra member must match this schema (a dictionary).
        case schema(JSONSchema)
    }

    /// The value's type; `nil` accepts any type.
    public var type: ValueType?
    /// What the value means, for the model.
    public var description: String?
    /// An object's declared members.
    public var properties: [String: JSONSchema]
    /// Members an object must have.
    public var required: [String]
    /// What extra object members are allowed; `nil` leaves it unsaid (allowed).
    public var additionalProperties: AdditionalProperties?
    /// The schema of every array element.
    public var items: JSONSchema? {
        get { itemStorage.first }
        set { itemStorage = newValue.map { [$0] } ?? [] }
    }
    private var itemStorage: [JSONSchema]
    /// The values allowed, if restricted.
    public var enumValues: [JSONValue]?
    /// The value used when the member is absent.
    public var defaultValue: JSONValue?
    /// Inclusive lower bound of a number.
    public var minimum: Double?
    /// Inclusive upper bound of a number.
    public var maximum: Double?
    /// Fewest characters (Unicode scalars) of a string.
    public var minLength: Int?
    /// Most characters (Unicode scalars) of a string.
    public var maxLength: Int?
    /// A regular expression a string must contain a match of.
    public var pattern: String?
    /// A format hint such as `date-time`, `uri` or `uuid`; `date-time`, `uri` and `uuid` are checked.
    public var format: String?
    /// Fewest array elements.
    public var minItems: Int?
    /// Most array elements.
    public var maxItems: Int?
    /// Whether array elements must be distinct.
    public var uniqueItems: Bool
    /// Whether `null` is accepted besides ``type`` (OpenAPI's `nullable`).
    public var nullable: Bool

    /// Creates a schema.
    public init(
        type: ValueType? = nil,
        description: String? = nil,
        properties: [String: JSONSchema] = [:],
        required: [String] = [],
        additionalProperties: AdditionalProperties? = nil,
        items: JSONSchema? = nil,
        enumValues: [JSONValue]? = nil,
        defaultValue: JSONValue? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        minLength: Int? = nil,
        maxLength: Int? = nil,
        pattern: String? = nil,
        format: String? = nil,
        minItems: Int? = nil,
        maxItems: Int? = nil,
        uniqueItems: Bool = false,
        nullable: Bool = false
    ) {
        self.type = type
        self.description = description
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.itemStorage = items.map { [$0] } ?? []
        self.enumValues = enumValues
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.minItems = minItems
        self.maxItems = maxItems
        self.uniqueItems = uniqueItems
        self.nullable = nullable
    }

    /// An object schema with the given members; `required` lists the mandatory ones.
    public static func object(
        _ properties: [String: JSONSchema],
        required: [String] = [],
        description: String? = nil
    ) -> JSONSchema {
        JSONSchema(type: .object, description: description, properties: properties, required: required)
    }

    /// An array schema whose elements match `items`.
    public static func array(of items: JSONSchema, description: String? = nil) -> JSONSchema {
        JSONSchema(type: .array, description: description, items: items)
    }
}
