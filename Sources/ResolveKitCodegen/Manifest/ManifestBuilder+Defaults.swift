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
    /// - Parameter hidden: ``hiddenMembers(of:)`` of `type`.
    static func privateMember(
        usedBy parameter: ParameterDeclaration, in type: TypeDeclaration, hidden: [HiddenMember]
    ) -> HiddenMember? {
        guard !hidden.isEmpty, let tokens = parameter.defaultValue?.tokens else { return nil }
        for (index, token) in tokens.enumerated() where token.kind == .identifier {
            guard let member = hidden.first(where: { $0.name == token.text }) else { continue }
            let qualifier = index >= 2 && tokens[index - 1].isPunctuation(".") ? tokens[index - 2] : nil
            let isBare = index == 0 || !tokens[index - 1].isPunctuation(".")
            if isBare || qualifier?.text == "Self" || qualifier?.text == type.name { return member }
        }
        return nil
    }

    /// The member of another type that a parameter's default value names (`Defaults.level`) when that member, or
    /// the type itself, is `private` or `fileprivate`: out of sight of the generated file as well.
    func hiddenMemberOfAnotherType(
        usedBy parameter: ParameterDeclaration, in type: TypeDeclaration, scope: [String]
    ) -> HiddenMember? {
        guard let tokens = parameter.defaultValue?.tokens, tokens.count >= 3 else { return nil }
        for position in 2..<tokens.count where tokens[position].kind == .identifier {
            let qualifier = tokens[position - 2]
            guard tokens[position - 1].isPunctuation("."), qualifier.kind == .identifier, qualifier.text != "Self",
                qualifier.text != type.name, case .type(let entry) = index.lookup([qualifier.text], from: scope)
            else { continue }
            if entry.ownAccess == .private || entry.ownAccess == .fileprivate {
                return HiddenMember(name: qualifier.text, access: entry.ownAccess)
            }
            let member = Self.hiddenMembers(of: entry.declaration).first { $0.name == tokens[position].text }
            if let member { return member }
        }
        return nil
    }

    /// The `private` and `fileprivate` static properties and functions of `type`: worked out once per function,
    /// not once per parameter.
    static func hiddenMembers(of type: TypeDeclaration) -> [HiddenMember] {
        let statics =
            type.properties.filter(\.isStatic).map { ($0.name, $0.access) }
            + type.functions.filter(\.isStatic).map { ($0.name, $0.access) }
        return statics.compactMap { name, access in
            access == .private || access == .fileprivate ? HiddenMember(name: name, access: access!) : nil
        }
    }
}
