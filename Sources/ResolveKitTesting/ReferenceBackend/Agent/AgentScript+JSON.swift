import ResolveKitCore

extension AgentScript {
    /// A script file that cannot be used; the message names the rule and member.
    public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// Reads a script from JSON: rules tried in order, each with a match (`keywords`, `regex` or `always`) and one
    /// outcome, then the default agent's behaviour (registered functions named in the message are called):
    ///
    /// ```json
    /// {"rules": [
    ///   {"keywords": ["lights"], "calls": [{"function": "set_lights", "arguments": {"room": "kitchen"}}],
    ///    "answer": "Done: {result}"},
    ///   {"keywords": ["thermostat"], "calls": [{"function": "set_thermostat"}]},
    ///   {"regex": "fail(ing)? model", "error": {"code": "llm_error", "message": "The model is down"}},
    ///   {"keywords": ["human"], "escalate": "The user asked for a person"},
    ///   {"always": true, "answer": "I can only switch lights."}
    /// ]}
    /// ```
    /// A call without `arguments` takes them from the function's schema and the message; `answer` may quote the
    /// calls' results (`{result}`, `{result2}` …) and the message (`{text}`).
    /// - Throws: ``FileError`` naming the rule and member that are wrong.
    public init(jsonBytes: [UInt8]) throws(FileError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: jsonBytes)
        } catch {
            throw FileError(message: "not valid JSON: \(error)")
        }
        guard let rules = json["rules"]?.arrayValue else {
            throw FileError(message: "expected an object with a \"rules\" array")
        }
        var parsed: [Rule] = []
        for (index, rule) in rules.enumerated() {
            parsed.append(try Self.rule(rule, at: "rules[\(index)]"))
        }
        self.init(rules: parsed, callsNamedFunctions: true)
    }

    private static func rule(_ json: JSONValue, at path: String) throws(FileError) -> Rule {
        let match: Match
        if let words = json["keywords"]?.arrayValue?.compactMap(\.stringValue), !words.isEmpty {
            match = .keywords(words)
        } else if let pattern = json["regex"]?.stringValue {
            guard (try? Regex(pattern)) != nil else { throw FileError(message: "\(path).regex is not a valid pattern") }
            match = .regex(pattern)
        } else if json["always"]?.boolValue == true {
            match = .always
        } else {
            throw FileError(message: "\(path) needs \"keywords\" (a non-empty array), \"regex\" or \"always\": true")
        }
        var rounds: [Round] = []
        if let calls = json["calls"]?.arrayValue {
            var toolCalls: [ToolCall] = []
            for (index, call) in calls.enumerated() {
                guard let name = call["function"]?.stringValue else {
                    throw FileError(message: "\(path).calls[\(index)].function must be a function name")
                }
                let arguments = call["arguments"]
                guard arguments == nil || arguments?.objectValue != nil else {
                    throw FileError(message: "\(path).calls[\(index)].arguments must be an object")
                }
                toolCalls.append(ToolCall(name, arguments: arguments ?? [:], argumentsFromMessage: arguments == nil))
            }
            rounds.append(.toolCalls(toolCalls))
            rounds.append(.text(json["answer"]?.stringValue ?? doneTemplate))
        } else if let answer = json["answer"]?.stringValue {
            rounds.append(.text(answer))
        } else if let error = json["error"] {
            guard let code = error["code"]?.stringValue, let message = error["message"]?.stringValue else {
                throw FileError(message: "\(path).error needs \"code\" and \"message\"")
            }
            rounds.append(.error(code: code, message: message))
        } else if let reason = json["escalate"]?.stringValue {
            rounds.append(.escalate(reason: reason))
        } else {
            throw FileError(message: "\(path) needs one of \"calls\", \"answer\", \"error\" or \"escalate\"")
        }
        return Rule(match, rounds: rounds)
    }
}
