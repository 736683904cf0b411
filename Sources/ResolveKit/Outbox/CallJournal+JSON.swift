extension CallJournal.Entry {
    /// One line of the journal file: the entry's current state.
    var json: JSONValue {
        var object: JSONObject = [
            "session_id": .string(key.sessionID), "call_id": .string(key.callID.rawValue),
            "turn_id": .string(turnID), "function_name": .string(functionName),
        ]
        switch status {
        case .received: object["status"] = "received"
        case .running: object["status"] = "running"
        case .settled: object["status"] = "settled"
        case .answered(.success(let value)):
            object["status"] = "answered"
            object["result"] = value
        case .answered(.failure(let error)):
            object["status"] = "answered"
            object["error"] = .string(error.message)
            object["error_code"] = .string(error.code.rawValue)
        }
        return .object(object)
    }
}

extension CallJournal {
    /// Every entry as lines of the journal file, oldest first.
    var lines: [JSONValue] {
        entries.values.sorted { $0.sequence < $1.sequence }.map(\.json)
    }

    /// Replays journal lines: a later line for the same call replaces the earlier state. Lines that do not fit
    /// are skipped. The result has no pending changes.
    init(lines: some Sequence<JSONValue>, capacity: Int = 4096) {
        self.init(capacity: capacity)
        for item in lines {
            guard let sessionID = item["session_id"]?.stringValue, let callID = item["call_id"]?.stringValue,
                let turnID = item["turn_id"]?.stringValue, let name = item["function_name"]?.stringValue,
                let statusName = item["status"]?.stringValue
            else { continue }
            let status: Status
            switch statusName {
            case "received": status = .received
            case "running": status = .running
            case "settled": status = .settled
            case "answered":
                if let message = item["error"]?.stringValue {
                    // Journals written before codes were kept have none: the error is the function's.
                    let code =
                        item["error_code"]?.stringValue.map(ResolveKitFunctionError.Code.init) ?? .executionFailed
                    status = .answered(.failure(ResolveKitFunctionError(code: code, message: message)))
                } else {
                    status = .answered(.success(item["result"] ?? .null))
                }
            default: continue
            }
            _ = admit(sessionID: sessionID, callID: ToolCallID(callID), turnID: turnID, functionName: name)
            restore(Key(sessionID: sessionID, callID: ToolCallID(callID)), status: status)
        }
        _ = takeChangedEntries()
    }
}
