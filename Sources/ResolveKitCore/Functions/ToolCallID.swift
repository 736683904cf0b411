/// The id of one tool call, as the agent's `tool_call_request` named it: the same value from the decoded event to
/// the result posted, the call journal, approvals, the audit trail and MCP.
///
/// Call ids come from the model, so two sessions may both have a `call_0`: wherever calls of several sessions meet
/// (approvals, the audit trail), a call is named by its session and id.
public struct ToolCallID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id's text.
    public let rawValue: String

    /// An id from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An id from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An id written as a literal: `"call_0"`.
    public init(stringLiteral value: String) { rawValue = value }

    /// The id's text.
    public var description: String { rawValue }

    /// Whether the id is empty (a malformed request that cannot be answered).
    public var isEmpty: Bool { rawValue.isEmpty }

    /// Orders ids by their text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
