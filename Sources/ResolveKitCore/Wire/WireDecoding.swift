/// A wire message that does not have the shape the wire contract (WireProtocol) gives it.
package struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where, e.g. `$.payload.call_id`.
    package var path: String
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$.payload.call_id: expected string, got number 3`.
    package var description: String { "\(path): \(message)" }
}

/// A value that is read from the JSON of the wire.
package protocol WireDecodable: Sendable {
    /// Reads the value from JSON.
    /// - Throws: ``WireDecodingError`` naming the path that does not fit.
    init(json: JSONValue) throws(WireDecodingError)
}

/// A value that is written as JSON on the wire.
package protocol WireEncodable: Sendable {
    /// The value's JSON.
    var json: JSONValue { get }
}

extension WireDecodable {
    /// Parses JSON bytes and reads the value.
    /// - Throws: ``WireDecodingError`` (a parse failure is reported at `$` with its byte offset).
    package init(jsonBytes: some Collection<UInt8>) throws(WireDecodingError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonBytes)
        } catch {
            throw WireDecodingError(path: "$", message: "malformed JSON: \(error)")
        }
        try self.init(json: value)
    }
}

extension Array: WireDecodable where Element: WireDecodable {
    /// Reads an array whose elements are each `Element`.
    package init(json: JSONValue) throws(WireDecodingError) {
        guard case .array(let elements) = json else {
            throw WireDecodingError(path: "$", message: "expected array, got \(json.typeName)")
        }
        var result: [Element] = []
        for (index, element) in elements.enumerated() {
            do {
                result.append(try Element(json: element))
            } catch {
                throw WireDecodingError(path: "$[\(index)]" + error.path.dropFirst(), message: error.message)
            }
        }
        self = result
    }
}

/// Reads the members of one JSON object, naming the full path in every error.
struct WireObjectReader {
    let members: JSONObject
    let path: String

    init(_ json: JSONValue, path: String = "$") throws(WireDecodingError) {
        guard case .object(let members) = json else {
            throw WireDecodingError(path: path, message: "expected object, got \(json.typeName)")
        }
        self.members = members
        self.path = path
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> WireDecodingError {
        WireDecodingError(path: "\(path).\(key)", message: "expected \(expected), got \(value.typeName)")
    }

    private func missing(_ key: String) -> WireDecodingError {
        WireDecodingError(path: "\(path).\(key)", message: "is required")
    }

    func string(_ key: String) throws(WireDecodingError) -> String {
        guard let value = members[key] else { throw missing(key) }
        guard case .string(let text) = value else { throw mismatch(key, "string", value) }
        return text
    }

    func optionalString(_ key: String) throws(WireDecodingError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, "string", value) }
        return text
    }

    func int(_ key: String) throws(WireDecodingError) -> Int {
        guard let value = members[key] else { throw missing(key) }
        guard let number = value.intValue else { throw mismatch(key, "integer", value) }
        return number
    }

    func optionalInt(_ key: String) throws(WireDecodingError) -> Int? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw mismatch(key, "integer", value) }
        return number
    }

    func bool(_ key: String) throws(WireDecodingError) -> Bool {
        guard let value = members[key] else { throw missing(key) }
        guard case .bool(let flag) = value else { throw mismatch(key, "boolean", value) }
        return flag
    }

    func optionalBool(_ key: String) throws(WireDecodingError) -> Bool? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, "boolean", value) }
        return flag
    }

    func object(_ key: String) throws(WireDecodingError) -> JSONObject {
        guard let value = members[key] else { throw missing(key) }
        guard case .object(let object) = value else { throw mismatch(key, "object", value) }
        return object
    }

    func optionalObject(_ key: String) throws(WireDecodingError) -> JSONObject? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .object(let object) = value else { throw mismatch(key, "object", value) }
        return object
    }

    func strings(_ key: String) throws(WireDecodingError) -> [String] {
        guard let value = members[key] else { throw missing(key) }
        guard case .array(let elements) = value else { throw mismatch(key, "array of strings", value) }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw WireDecodingError(path: "\(path).\(key)[\(index)]", message: "expected string, got \(element.typeName)")
            }
            result.append(text)
        }
        return result
    }

    func ints(_ key: String) throws(WireDecodingError) -> [Int] {
        guard let value = members[key], case .array(let elements) = value else {
            throw members[key].map { mismatch(key, "array of integers", $0) } ?? missing(key)
        }
        var result: [Int] = []
        for (index, element) in elements.enumerated() {
            guard let number = element.intValue else {
                throw WireDecodingError(path: "\(path).\(key)[\(index)]", message: "expected integer, got \(element.typeName)")
            }
            result.append(number)
        }
        return result
    }

    func nested(_ key: String) throws(WireDecodingError) -> WireObjectReader {
        guard let value = members[key] else { throw missing(key) }
        return try WireObjectReader(value, path: "\(path).\(key)")
    }

    func value(_ key: String) -> JSONValue? { members[key] }
}

extension JSONObject {
    /// Sets `key` only when `value` is not nil; wire bodies omit absent optional members.
    mutating func setIfPresent(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
}
