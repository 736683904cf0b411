extension ManifestBuilder {
    /// The `private` or `fileprivate` static property of the function's type that a parameter's default value uses
    /// (`Self.x`, `TypeName.x` or a bare `x`), if any. The generated `invoke` repeats the default expression in
    /// another file, where such a member is out of sight: the compiler would report it inside the generated file.
    static func privateMember(usedBy parameter: ParameterDeclaration, in type: TypeDeclaration) -> PropertyDeclaration? {
        guard let tokens = parameter.defaultValue?.tokens else { return nil }
        let hidden = type.properties.filter { property in
            property.isStatic && (property.access == .private || property.access == .fileprivate)
        }
        guard !hidden.isEmpty else { return nil }
        for (index, token) in tokens.enumerated() where token.kind == .identifier {
            guard let property = hidden.first(where: { $0.name == token.text }) else { continue }
            let qualifier = index >= 2 && tokens[index - 1].isPunctuation(".") ? tokens[index - 2] : nil
            let isBare = index == 0 || !tokens[index - 1].isPunctuation(".")
            if isBare || qualifier?.text == "Self" || qualifier?.text == type.name { return property }
        }
        return nil
    }
}
