import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value. A boolean stays a boolean and a number stays a number.
    ///
    /// Integers beyond ±2^53 that fit 64 bits are refused; a decoder hands wider integer literals over as
    /// `Double`, so use ``JSONParser`` (which refuses every integer literal beyond ±2^53) for untrusted text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            guard integer.magnitude <= 1 << 53 else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Integer \(integer) is beyond ±2^53 and cannot be held exactly"
                )
            }
            self = .number(Double(integer))
        } else if let unsigned = try? container.decode(UInt64.self) {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Integer \(unsigned) is beyond ±2^53 and cannot be held exactly"
            )
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let members = try? container.decode(JSONObject.self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number):
            if number.rounded() == number, abs(number) <= Self.maxExactInteger {
                try container.encode(Int64(number))
            } else {
                try container.encode(number)
            }
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue {
    /// Converts any `Encodable` value (a tool result, a nested struct) to a ``JSONValue``.
    ///
    /// Dates become ISO-8601 strings with fractional seconds, `Data` becomes base64, and a `Void`-like empty
    /// result should be passed as ``JSONValue/null`` directly.
    /// - Throws: `EncodingError` from the value's encoding, or ``JSONParseError`` for numbers JSON cannot hold.
    public init(encoding value: some Encodable) throws {
        let data = try Self.encoder.encode(value)
        self = try JSONValue(parsing: data)
    }

    /// Decodes a `Decodable` Swift value from this JSON value (nested argument structs, typed payloads).
    /// - Throws: `DecodingError` naming the coding path that did not fit.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try Self.decoder.decode(Value.self, from: Data(serializedBytes()))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Timestamp.format(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO-8601 date-time, got \(text)")
            }
            return date
        }
        return decoder
    }
}
