import ResolveKitTools

/// Optional members read with their type checked: one given with the wrong type is refused by name, never
/// dropped (a `session_id` of 5 must not decide the calls of whatever session holds the call id).
extension ApprovalCommand {
    /// The string member `name`, or `nil` when it is absent.
    static func string(_ object: JSONObject, _ name: String) throws(ParseFailure) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.stringValue else { throw ParseFailure("\"\(name)\" must be a string") }
        return text
    }

    /// `"arguments"` of `remember`: an object (only calls with exactly these arguments), or `nil` when absent.
    static func arguments(_ object: JSONObject) throws(ParseFailure) -> JSONValue? {
        guard let value = object["arguments"] else { return nil }
        guard value.objectValue != nil else {
            throw ParseFailure(#""arguments" must be an object, the exact arguments of the calls to allow"#)
        }
        return value
    }

    /// The operator's terminal as the client reports it: a string, or null from a client without one.
    static func terminal(_ object: JSONObject) throws(ParseFailure) -> String? {
        object["terminal"] == .null ? nil : try string(object, "terminal")
    }
}
