/// The cache form of the model's smaller parts: tokens kept for expressions, types as written, doc comments and
/// annotations.
extension Token {
    private static let kinds: [Kind] = [
        .identifier, .number, .string, .punctuation, .directive, .lineComment, .docLineComment, .blockComment,
        .docBlockComment,
    ]

    func encode(to writer: inout CacheWriter) {
        writer.write(Self.kinds.firstIndex(of: kind) ?? 0)
        writer.write(text)
        writer.write(stringValue)
        writer.write(start)
        writer.write(end)
        writer.write(line)
        writer.write(column)
        writer.write(precededByNewline)
    }

    init(from reader: inout CacheReader) throws(CacheReader.Malformed) {
        let kind = try reader.int()
        guard Self.kinds.indices.contains(kind) else { throw CacheReader.Malformed() }
        self.init(
            kind: Self.kinds[kind], text: try reader.string(), stringValue: try reader.optionalString(),
            start: try reader.int(), end: try reader.int(), line: try reader.int(), column: try reader.int(),
            precededByNewline: try reader.bool())
    }
}

extension TypeSyntax: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        switch self {
        case .name(let name, _):
            // Written as the one-component name it is, so the cache form does not tell the two cases apart.
            writer.write(0)
            writer.write(1)
            writer.write(name)
            writer.write(0)
        case .named(let components, _):
            writer.write(0)
            writer.write(components) { writer, component in
                writer.write(component.name)
                writer.write(component.arguments) { $1.encode(to: &$0) }
            }
        case .optional(let wrapped, _):
            writer.write(1)
            wrapped.encode(to: &writer)
        case .array(let element, _):
            writer.write(2)
            element.encode(to: &writer)
        case .dictionary(let key, let value, _):
            writer.write(3)
            key.encode(to: &writer)
            value.encode(to: &writer)
        case .tuple(let elements, _):
            writer.write(4)
            writer.write(elements) { $1.encode(to: &$0) }
        case .unsupported(let text, _):
            writer.write(5)
            writer.write(text)
        }
        location.encodePosition(to: &writer)
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        func type(_ reader: inout CacheReader) throws(CacheReader.Malformed) -> TypeSyntax {
            try TypeSyntax(file: file, from: &reader)
        }
        switch try reader.int() {
        case 0:
            let components = try reader.array { (reader) throws(CacheReader.Malformed) in
                Component(name: try reader.string(), arguments: try reader.array(type))
            }
            let location = try SourceLocation(file: file, from: &reader)
            self =
                components.count == 1 && components[0].arguments.isEmpty
                ? .name(components[0].name, location) : .named(components, location)
        case 1: self = .optional(try type(&reader), try SourceLocation(file: file, from: &reader))
        case 2: self = .array(try type(&reader), try SourceLocation(file: file, from: &reader))
        case 3:
            let key = try type(&reader)
            self = .dictionary(key, try type(&reader), try SourceLocation(file: file, from: &reader))
        case 4: self = .tuple(try reader.array(type), try SourceLocation(file: file, from: &reader))
        case 5: self = .unsupported(try reader.string(), try SourceLocation(file: file, from: &reader))
        default: throw CacheReader.Malformed()
        }
    }
}

extension DocComment: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        writer.write(lines) { writer, line in
            writer.write(String(line.text))
            line.location.encodePosition(to: &writer)
        }
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            lines: try reader.array { (reader) throws(CacheReader.Malformed) in
                Line(text: Substring(try reader.string()), location: try SourceLocation(file: file, from: &reader))
            })
    }
}

extension Annotation: FileCacheDecodable {
    func encode(to writer: inout CacheWriter) {
        location.encodePosition(to: &writer)
        writer.write(arguments) { writer, argument in
            writer.write(argument.label)
            argument.labelLocation.encodePosition(to: &writer)
            switch argument.value {
            case .string(let text):
                writer.write(0)
                writer.write(text)
            case .integer(let value):
                writer.write(1)
                writer.write(value)
            case .bool(let flag):
                writer.write(2)
                writer.write(flag)
            case .expression(let text):
                writer.write(3)
                writer.write(text)
            }
            argument.valueLocation.encodePosition(to: &writer)
        }
        writer.write(diagnostics) { $1.encode(to: &$0) }
    }

    init(file: String, from reader: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            location: try SourceLocation(file: file, from: &reader),
            arguments: try reader.array { (reader) throws(CacheReader.Malformed) in
                let label = try reader.string()
                let labelLocation = try SourceLocation(file: file, from: &reader)
                let value: Value
                switch try reader.int() {
                case 0: value = .string(try reader.string())
                case 1: value = .integer(try reader.int())
                case 2: value = .bool(try reader.bool())
                case 3: value = .expression(try reader.string())
                default: throw CacheReader.Malformed()
                }
                return Argument(
                    label: label, labelLocation: labelLocation, value: value,
                    valueLocation: try SourceLocation(file: file, from: &reader))
            },
            diagnostics: try reader.array { (reader) throws(CacheReader.Malformed) in try Diagnostic(from: &reader) })
    }
}
