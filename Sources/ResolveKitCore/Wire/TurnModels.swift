/// `POST /v1/sessions/{id}/messages` body: one user turn (§4.9).
package struct MessageSubmitRequest: WireEncodable, Hashable {
    /// The user's text (1–32768 characters and bytes).
    package var text: String
    /// The client-generated id that makes the submission idempotent; reuse it on every retry.
    package var requestID: String
    /// The locale for this turn.
    package var locale: String?

    /// Creates the body.
    package init(text: String, requestID: String, locale: String? = nil) {
        self.text = text
        self.requestID = requestID
        self.locale = locale
    }

    /// The JSON body.
    package var json: JSONValue {
        var object: JSONObject = ["text": .string(text), "request_id": .string(requestID)]
        object.setIfPresent("locale", locale.map(JSONValue.string))
        return .object(object)
    }
}

/// `202` response to a message submission.
package struct MessageAccepted: WireDecodable, Hashable {
    /// The server's turn id (the original one for a repeated `request_id`).
    package var turnID: String
    /// The request id echoed.
    package var requestID: String
    /// `accepted`.
    package var status: String

    /// Reads the response.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        turnID = try reader.string("turn_id")
        requestID = try reader.optionalString("request_id") ?? ""
        status = try reader.optionalString("status") ?? "accepted"
    }
}

/// `POST /v1/sessions/{id}/tool-results` body (§4.10). Any status but `success` is an error to the model.
package struct ToolResultSubmission: WireEncodable, Hashable {
    /// The turn the call belongs to (from the request's envelope).
    package var turnID: String
    /// The call answered.
    package var callID: ToolCallID
    /// Stable across retries of the same result.
    package var idempotencyKey: String
    /// The result, or the error the model is told (`{"error": "<message>"}`) with its code as the `status`.
    package var outcome: ToolCallOutcome

    /// The longest error text the backend accepts.
    package static let maxErrorLength = 4096

    /// Creates the body.
    package init(turnID: String, callID: ToolCallID, idempotencyKey: String, outcome: ToolCallOutcome) {
        self.turnID = turnID
        self.callID = callID
        self.idempotencyKey = idempotencyKey
        self.outcome = outcome
    }

    /// The JSON body. An error's code is its `status` (the backend treats every status but `success` as an error and
    /// keeps it with the result), so the code travels beside the message; an error text longer than the backend's
    /// limit is cut with an ellipsis.
    package var json: JSONValue {
        var object: JSONObject = [
            "turn_id": .string(turnID), "call_id": .string(callID.rawValue),
            "idempotency_key": .string(idempotencyKey),
        ]
        switch outcome {
        case .success(let result):
            object["status"] = "success"
            object["result"] = result
        case .failure(let error):
            object["status"] = .string(Self.status(for: error.code))
            object["result"] = .null
            let limit = Self.maxErrorLength
            let message = error.message
            object["error"] = .string(message.count <= limit ? message : String(message.prefix(limit - 1)) + "…")
        }
        return .object(object)
    }

    /// The `status` for an error code: the code itself when the backend's field can hold it (1–32 characters of
    /// `a-z`, `0-9`, `_`, never `success`), otherwise `error`.
    package static func status(for code: ResolveKitFunctionError.Code) -> String {
        let text = code.rawValue
        let fits = (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        return fits && text != "success" ? text : "error"
    }
}

/// `200` response to a tool result.
package struct ToolResultAcknowledgement: WireDecodable, Hashable {
    /// `ok`.
    package var status: String
    /// Whether the server had already seen this exact submission.
    package var deduplicated: Bool

    /// Reads the response.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        status = try reader.optionalString("status") ?? "ok"
        deduplicated = try reader.optionalBool("deduplicated") ?? false
    }
}

/// `POST /v1/sessions/{id}/feedback` body (§4.11).
package struct FeedbackSubmission: WireEncodable, Hashable {
    /// 1 to 5.
    package var rating: Int
    /// An optional comment (≤2000 characters).
    package var comment: String?

    /// Creates the body.
    package init(rating: Int, comment: String? = nil) {
        self.rating = rating
        self.comment = comment
    }

    /// The JSON body.
    package var json: JSONValue {
        ["rating": .number(Double(rating)), "comment": comment.map(JSONValue.string) ?? .null]
    }
}

/// `GET /v1/sdk/compat` response (§4.1).
package struct CompatibilityInfo: WireDecodable, Hashable {
    /// The lowest SDK version the backend supports.
    package var minimumSDKVersion: String
    /// The SDK major versions the backend supports.
    package var supportedSDKMajorVersions: [Int]
    /// Informational client fields.
    package var clientRequirements: [String]
    /// The server's clock, as sent.
    package var serverTime: String

    /// Reads the response.
    package init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json)
        minimumSDKVersion = try reader.string("minimum_sdk_version")
        supportedSDKMajorVersions = try reader.ints("supported_sdk_major_versions")
        clientRequirements = try reader.value("client_requirements") == nil ? [] : reader.strings("client_requirements")
        serverTime = try reader.optionalString("server_time") ?? ""
    }

    /// Whether an SDK of `version` (`major.minor.patch`) passes the gate: its major is supported and it is not
    /// below the minimum.
    package func supports(sdkVersion version: String) -> Bool {
        let parts = Self.components(version)
        guard let major = parts.first, supportedSDKMajorVersions.contains(major) else { return false }
        return !parts.lexicographicallyPrecedes(Self.components(minimumSDKVersion))
    }

    private static func components(_ version: String) -> [Int] {
        var parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        while parts.count < 3 { parts.append(0) }
        return parts
    }
}
