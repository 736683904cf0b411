extension CallJournal {
    /// The ledger as JSON for the state file.
    var json: JSONValue {
        let items = entries.values.sorted { $0.sequence < $1.sequence }.map { entry -> JSONValue in
            var object: JSONObject = [
                "session_id": .string(entry.key.sessionID), "call_id": .string(entry.key.callID),
                "turn_id": .string(entry.turnID), "function_name": .string(entry.functionName),
            ]
            switch entry.status {
            case .received: object["status"] = "received"
            case .running: object["status"] = "running"
            case .settled: object["status"] = "settled"
            case .answered(.success(let value)):
                object["status"] = "answered"
                object["result"] = value
            case .answered(.failure(let message)):
                object["status"] = "answered"
                object["error"] = .string(message)
            }
            return .object(object)
        }
        return ["version": 1, "entries": .array(items)]
    }

    /// Reads a ledger written by ``json``; entries that do not fit are skipped.
    init(json: JSONValue, capacity: Int = 4096) {
        self.init(capacity: capacity)
        for item in json["entries"]?.arrayValue ?? [] {
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
                    status = .answered(.failure(message))
                } else {
                    status = .answered(.success(item["result"] ?? .null))
                }
            default: continue
            }
            _ = admit(sessionID: sessionID, callID: callID, turnID: turnID, functionName: name)
            restore(Key(sessionID: sessionID, callID: callID), status: status)
        }
    }
}
