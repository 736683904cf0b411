/// What the generator is asked to produce.
public struct CodegenOptions: Sendable, Hashable {
    /// The access level of the generated `ResolveKitAutoRegistry`.
    public enum RegistryAccess: String, Sendable, Hashable, CaseIterable {
        /// Visible inside the module only (the default).
        case `internal`
        /// Visible to importers of the module.
        case `public`
    }

    /// The module the generated file belongs to, named in its header and the manifest.
    public var moduleName: String
    /// The access level of `ResolveKitAutoRegistry`.
    public var registryAccess: RegistryAccess

    /// Creates options.
    public init(moduleName: String = "Module", registryAccess: RegistryAccess = .internal) {
        self.moduleName = moduleName
        self.registryAccess = registryAccess
    }
}
