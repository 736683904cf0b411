extension ManifestBuilder {
    /// A member of the function's type that is out of sight of the generated file.
    struct HiddenMember: Equatable {
        var name: String
        var access: AccessLevel
    }

    /// The `private` or `fileprivate` static property or static function of the function's type that a
    /// parameter's default value uses (`Self.x`, `TypeName.x`, a bare `x`, or a call of one), if any. The generated
    /// `invoke` repeats the default expression in another file, where such a member is out of sight: the compiler
    /// would report it inside the generated file.
    static func privateMember(usedBy parameter: ParameterDeclaration, in type: TypeDeclaration) -> HiddenMember? {
        guard let tokens = parameter.defaultValue?.tokens else { return nil }
        func isHidden(_ access: AccessLevel?) -> Bool { access == .private || access == .fileprivate }
        let hidden = type.properties.filter { $0.isStatic && isHidden($0.access) }.map { HiddenMember(name: $0.name, access: $0.access!) }
            + type.functions.filter { $0.isStatic && isHidden($0.access) }.map { HiddenMember(name: $0.name, access: $0.access!) }
        guard !hidden.isEmpty else { return nil }
        for (index, token) in tokens.enumerated() where token.kind == .identifier {
            guard let member = hidden.first(where: { $0.name == token.text }) else { continue }
            let qualifier = index >= 2 && tokens[index - 1].isPunctuation(".") ? tokens[index - 2] : nil
            let isBare = index == 0 || !tokens[index - 1].isPunctuation(".")
            if isBare || qualifier?.text == "Self" || qualifier?.text == type.name { return member }
        }
        return nil
    }
}
