/// Reads JSON text (RFC 8259) into ``JSONValue``s.
///
/// The parser is strict: no comments, no trailing commas, no leading zeros, no raw control characters in strings,
/// no unpaired surrogates, no integer literal beyond ±2^53. Every failure is a ``JSONParseError`` with the byte
/// offset. Nesting is limited by `maxDepth` so that hostile input cannot exhaust the stack.
package struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    package var maxDepth: Int

    /// Creates a parser.
    /// - Parameter maxDepth: the deepest nesting of arrays and objects accepted (default 512).
    package init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON document from UTF-8 bytes.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    package func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parse(buffer)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parse($0) }.get()
    }

    /// Parses one JSON document from a string.
    /// - Throws: ``JSONParseError`` with the byte offset (in UTF-8) of the first problem.
    package func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parse($0) }.get()
    }

    private func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var reader = JSONReader(bytes: buffer, maxDepth: maxDepth)
        do throws(JSONParseError) {
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            if reader.index != buffer.count {
                throw reader.error(.trailingData, "Unexpected data after the JSON value")
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

extension JSONValue {
    /// Parses JSON text from UTF-8 bytes with the default ``JSONParser``.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    package init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }

    /// Parses JSON text with the default ``JSONParser``.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    package init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }
}
