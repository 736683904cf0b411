/// The cache form of the declaration model. Every location in a file's model names that file, so only lines and
/// columns are stored; the path is the entry's own.
extension SourceFileModel {
    func encode(to writer: inout CacheWriter) {
        writer.write(declarations) { $1.encode(to: &$0) }
        writer.write(typeAliases) { $1.encode(to: &$0) }
        writer.write(diagnostics) { $1.encode(to: &$0) }
    }

    init(path: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            path: path,
            declarations: try reader.array(of: TypeDeclaration.self, file: path),
            typeAliases: try reader.array(of: TypeAliasDeclaration.self, file: path),
            diagnostics: try reader.array { (reader) throws(CacheReader.Malformed) in try Diagnostic(from: &reader) })
    }
}

extension SourceLocation {
    func encodePosition(to writer: inout CacheWriter) {
        writer.write(line)
        writer.write(column)
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(file: file, line: try reader.int(), column: try reader.int())
    }
}

extension Diagnostic {
    func encode(to writer: inout CacheWriter) {
        writer.write(severity == .error)
        writer.write(message)
        writer.write(location.file)
        location.encodePosition(to: &writer)
    }

    init(from reader: inout CacheReader) throws(CacheReader.Malformed) {
        let severity: Severity = try reader.bool() ? .error : .warning
        let message = try reader.string()
        let file = try reader.string()
        self.init(severity: severity, message: message, location: try SourceLocation(file: file, from: &reader))
    }
}

extension CacheWriter {
    mutating func write(_ access: AccessLevel?) { write(access?.rawValue ?? -1) }
}

extension CacheReader {
    mutating func access() throws(Malformed) -> AccessLevel? {
        let raw = try int()
        guard raw != -1 else { return nil }
        guard let level = AccessLevel(rawValue: raw) else { throw Malformed() }
        return level
    }

    mutating func strings() throws(Malformed) -> [String] {
        try array { (reader) throws(Malformed) in try reader.string() }
    }
}

extension TypeDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(kind.rawValue)
        writer.write(name)
        location.encodePosition(to: &writer)
        writer.write(access)
        writer.write(genericParameters) { $0.write($1) }
        writer.write(inheritance) { $0.write($1) }
        writer.write(documentation) { $1.encode(to: &$0) }
        writer.write(annotation) { $1.encode(to: &$0) }
        writer.write(functions) { $1.encode(to: &$0) }
        writer.write(properties) { $1.encode(to: &$0) }
        writer.write(cases) { $1.encode(to: &$0) }
        writer.write(typeAliases) { $1.encode(to: &$0) }
        writer.write(nested) { $1.encode(to: &$0) }
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        guard let kind = Kind(rawValue: try reader.string()) else { throw CacheReader.Malformed() }
        self.init(
            kind: kind, name: try reader.string(), location: try SourceLocation(file: file, from: &reader),
            access: try reader.access())
        genericParameters = try reader.strings()
        inheritance = try reader.strings()
        documentation = try reader.optional(of: DocComment.self, file: file)
        annotation = try reader.optional(of: Annotation.self, file: file)
        functions = try reader.array(of: FunctionDeclaration.self, file: file)
        properties = try reader.array(of: PropertyDeclaration.self, file: file)
        cases = try reader.array(of: EnumCaseDeclaration.self, file: file)
        typeAliases = try reader.array(of: TypeAliasDeclaration.self, file: file)
        nested = try reader.array(of: TypeDeclaration.self, file: file)
    }
}

extension FunctionDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(name)
        location.encodePosition(to: &writer)
        writer.write(isStatic)
        writer.write(isMutating)
        writer.write(access)
        writer.write(genericParameters) { $0.write($1) }
        writer.write(parameters) { $1.encode(to: &$0) }
        writer.write(isAsync)
        writer.write(isThrowing)
        writer.write(returnType) { $1.encode(to: &$0) }
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(name: try reader.string(), location: try SourceLocation(file: file, from: &reader))
        isStatic = try reader.bool()
        isMutating = try reader.bool()
        access = try reader.access()
        genericParameters = try reader.strings()
        parameters = try reader.array(of: ParameterDeclaration.self, file: file)
        isAsync = try reader.bool()
        isThrowing = try reader.bool()
        returnType = try reader.optional(of: TypeSyntax.self, file: file)
    }
}

extension ParameterDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(label)
        writer.write(name)
        location.encodePosition(to: &writer)
        type.encode(to: &writer)
        writer.write(defaultValue) { writer, value in
            writer.write(value.tokens) { $1.encode(to: &$0) }
            writer.write(value.text)
        }
        writer.write(isVariadic)
        writer.write(specifier)
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        let label = try reader.optionalString()
        let name = try reader.string()
        let location = try SourceLocation(file: file, from: &reader)
        self.init(label: label, name: name, location: location, type: try TypeSyntax(file: file, from: &reader))
        defaultValue = try reader.optional { (reader) throws(CacheReader.Malformed) in
            DefaultValueSyntax(
                tokens: try reader.array { (reader) throws(CacheReader.Malformed) in try Token(from: &reader) },
                text: try reader.string())
        }
        isVariadic = try reader.bool()
        specifier = try reader.optionalString()
    }
}

extension PropertyDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(name)
        location.encodePosition(to: &writer)
        writer.write(type) { $1.encode(to: &$0) }
        writer.write(isLet)
        writer.write(isStatic)
        writer.write(access)
        writer.write(hasInitializer)
        writer.write(isComputed)
        writer.write(isLazy)
        writer.write(documentation) { $1.encode(to: &$0) }
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        let name = try reader.string()
        let location = try SourceLocation(file: file, from: &reader)
        let type = try reader.optional(of: TypeSyntax.self, file: file)
        self.init(name: name, location: location, type: type, isLet: try reader.bool())
        isStatic = try reader.bool()
        access = try reader.access()
        hasInitializer = try reader.bool()
        isComputed = try reader.bool()
        isLazy = try reader.bool()
        documentation = try reader.optional(of: DocComment.self, file: file)
    }
}

extension EnumCaseDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(name)
        location.encodePosition(to: &writer)
        writer.write(rawValue) { $1.encode(to: &$0) }
        writer.write(hasAssociatedValues)
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(name: try reader.string(), location: try SourceLocation(file: file, from: &reader))
        rawValue = try reader.array { (reader) throws(CacheReader.Malformed) in try Token(from: &reader) }
        hasAssociatedValues = try reader.bool()
    }
}

extension TypeAliasDeclaration: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(name)
        location.encodePosition(to: &writer)
        target.encode(to: &writer)
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            name: try reader.string(), location: try SourceLocation(file: file, from: &reader),
            target: try TypeSyntax(file: file, from: &reader))
    }
}
