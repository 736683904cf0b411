/// The functions a process offers, checked once against what the backend would reject.
///
/// Build it from inline functions and packs; it refuses duplicate names, names outside `[A-Za-z0-9_-]{1,64}`,
/// the server-reserved `kb_search` and `escalate_to_human`, timeouts outside 1–300, descriptions over 1000
/// characters and schemas outside the supported subset. Each error names the offending Swift type.
public struct ResolveKitRegistry: Sendable {
    /// One registered function with what the registry derived from it.
    public struct Entry: Sendable {
        /// The function type.
        public let function: any AnyResolveKitFunction.Type
        /// Its parameter schema, parsed.
        public let schema: JSONSchema
        /// The pack it came from, if any.
        public let packName: String?
        /// The pack's platforms, if it came from a pack.
        public let platforms: [ResolveKitPlatform]?

        /// The function's name.
        public var name: String { function.resolveKitName }
    }

    /// Names the backend handles itself; a client function may not use them.
    public static let reservedNames: Set<String> = ["kb_search", "escalate_to_human"]
    /// The most functions one bulk registration accepts.
    public static let maxFunctions = 512

    /// The entries in registration order: inline functions first, then each pack's.
    public let entries: [Entry]
    private let indexByName: [String: Int]

    /// Builds a registry.
    /// - Throws: ``ResolveKitRegistryError`` for the first function the backend would reject.
    public init(
        functions: [any AnyResolveKitFunction.Type] = [],
        functionPacks: [any ResolveKitFunctionPack.Type] = []
    ) throws(ResolveKitRegistryError) {
        var entries: [Entry] = []
        var indexByName: [String: Int] = [:]
        func add(_ function: any AnyResolveKitFunction.Type, pack: (any ResolveKitFunctionPack.Type)?) throws(ResolveKitRegistryError) {
            let schema = try Self.check(function)
            if let earlier = indexByName[function.resolveKitName] {
                throw ResolveKitRegistryError(
                    code: .duplicateName, functionType: String(reflecting: function),
                    message: "the name '\(function.resolveKitName)' is already used by \(String(reflecting: entries[earlier].function))")
            }
            indexByName[function.resolveKitName] = entries.count
            entries.append(Entry(function: function, schema: schema, packName: pack?.packName, platforms: pack?.supportedPlatforms))
        }
        for function in functions { try add(function, pack: nil) }
        for pack in functionPacks {
            for function in pack.functions { try add(function, pack: pack) }
        }
        guard entries.count <= Self.maxFunctions else {
            throw ResolveKitRegistryError(
                code: .tooManyFunctions, functionType: "",
                message: "\(entries.count) functions; the backend accepts at most \(Self.maxFunctions)")
        }
        self.entries = entries
        self.indexByName = indexByName
    }

    /// The names in registration order.
    public var functionNames: [String] { entries.map(\.name) }

    /// The entry for `name`, if registered.
    public func entry(named name: String) -> Entry? {
        indexByName[name].map { entries[$0] }
    }

    /// The function type for `name`, if registered.
    public func function(named name: String) -> (any AnyResolveKitFunction.Type)? {
        entry(named: name)?.function
    }

    /// The `PUT /v1/functions/bulk` body for every entry (§4.3): pack functions carry `source: playbook_pack`,
    /// `pack_name` and `availability.platforms`.
    package func bulkRegistration() -> FunctionBulkSync {
        FunctionBulkSync(functions: entries.map { entry in
            let function = entry.function
            return FunctionRegistration(
                name: function.resolveKitName,
                description: function.resolveKitDescription,
                parametersSchema: function.resolveKitParametersSchema,
                timeoutSeconds: function.resolveKitTimeoutSeconds,
                requiresApproval: function.resolveKitRequiresApproval,
                availability: entry.platforms.map { ["platforms": .array($0.map { .string($0.rawValue) })] },
                source: entry.packName == nil ? .appInline : .playbookPack,
                packName: entry.packName)
        })
    }

    private static func check(_ function: any AnyResolveKitFunction.Type) throws(ResolveKitRegistryError) -> JSONSchema {
        let typeName = String(reflecting: function)
        let name = function.resolveKitName
        func fail(_ code: ResolveKitRegistryError.Code, _ message: String) -> ResolveKitRegistryError {
            ResolveKitRegistryError(code: code, functionType: typeName, message: message)
        }
        guard isValidName(name) else {
            throw fail(.invalidName, "the name '\(name)' must be 1–64 characters of A–Z, a–z, 0–9, '_' or '-'")
        }
        guard !reservedNames.contains(name) else {
            throw fail(.reservedName, "the name '\(name)' is reserved by the backend")
        }
        if let timeout = function.resolveKitTimeoutSeconds, !(1...300).contains(timeout) {
            throw fail(.invalidTimeout, "timeout \(timeout) s is outside 1–300 s")
        }
        guard function.resolveKitDescription.count <= 1000 else {
            throw fail(.descriptionTooLong, "the description has \(function.resolveKitDescription.count) characters; at most 1000")
        }
        do {
            return try JSONSchema(jsonObject: function.resolveKitParametersSchema)
        } catch {
            throw fail(.invalidSchema, "parameters schema: \(error)")
        }
    }

    /// Whether `name` matches `[A-Za-z0-9_-]{1,64}`.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }
}

/// A function the registry refuses, with the Swift type that declared it.
public struct ResolveKitRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable identifier.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Two functions share a name.
        public static let duplicateName = Code("duplicate_name")
        /// The name breaks `[A-Za-z0-9_-]{1,64}`.
        public static let invalidName = Code("invalid_name")
        /// The name is `kb_search` or `escalate_to_human`.
        public static let reservedName = Code("reserved_name")
        /// The timeout is outside 1–300 s.
        public static let invalidTimeout = Code("invalid_timeout")
        /// The description is over 1000 characters.
        public static let descriptionTooLong = Code("description_too_long")
        /// The schema is outside the supported subset.
        public static let invalidSchema = Code("invalid_schema")
        /// More than 512 functions.
        public static let tooManyFunctions = Code("too_many_functions")
    }

    /// Why.
    public var code: Code
    /// The Swift type at fault, e.g. `MyApp.SetLights`.
    public var functionType: String
    /// What to fix.
    public var message: String

    /// Creates an error.
    public init(code: Code, functionType: String, message: String) {
        self.code = code
        self.functionType = functionType
        self.message = message
    }

    /// `MyApp.SetLights: the name 'set lights' must be …`.
    public var description: String { functionType.isEmpty ? message : "\(functionType): \(message)" }
}
