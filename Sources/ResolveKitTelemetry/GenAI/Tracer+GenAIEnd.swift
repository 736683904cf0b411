/// The spans of ``Tracer+GenAI`` ended from a ``PendingSpan``, with the same names and attributes: what the tools
/// core and the session use on their hot paths, where everything about a call or a request is known only at its end.
/// Each is ended as a ``DeferredSpan``: its name and attributes are put together when it is exported, off the path;
/// a span that does not record costs nothing more (not even the closure that would describe it).
extension Tracer {
    /// Ends a call's `execute_tool {function}` span with its outcome and who decided it; anything but success sets
    /// `error.type` (`tool_error`, `declined`, `timeout`, `refused`) and an error status.
    public func endToolCall(
        _ span: PendingSpan, function: String, callID: String, outcome: ResolveKitMetrics.ToolOutcome,
        decidedBy: ResolveKitMetrics.Decider, endTime: UInt64? = nil
    ) {
        guard span.isRecording, processor != nil else { return }
        end(span, endTime: endTime) {
            var attributes = [
                SpanAttribute(SemanticAttributes.genAIOperationName, "execute_tool"),
                SpanAttribute(SemanticAttributes.genAIToolName, .string(function)),
                SpanAttribute(SemanticAttributes.genAIToolCallID, .string(callID)),
                SpanAttribute(SemanticAttributes.genAIToolType, "function"),
                SpanAttribute(SemanticAttributes.approvalDecidedBy, .string(decidedBy.rawValue)),
                SpanAttribute(SemanticAttributes.toolOutcome, .string(outcome.rawValue)),
            ]
            var status = SpanStatus.unset
            let error = ResolveKitMetrics.OperationError(outcome)
            if error != .none {
                attributes.append(SpanAttribute(SemanticAttributes.errorType, .string(error.rawValue)))
                status = .error(description: "The call ended: \(outcome.rawValue)")
            }
            return SpanDescription("execute_tool \(function)", attributes: attributes, status: status)
        }
    }

    /// Ends a call's `approval {function}` span: who decided and whether the call may run, or, when nobody decided
    /// before the call ended, `error.type` `withdrawn`.
    public func endApproval(
        _ span: PendingSpan, function: String, decidedBy: ResolveKitMetrics.Decider?, approved: Bool,
        endTime: UInt64? = nil
    ) {
        guard span.isRecording, processor != nil else { return }
        end(span, endTime: endTime) {
            guard let decidedBy else {
                return SpanDescription(
                    "approval \(function)", attributes: [SpanAttribute(SemanticAttributes.errorType, "withdrawn")],
                    status: .error(description: "The call ended before anyone decided"))
            }
            return SpanDescription(
                "approval \(function)",
                attributes: [
                    SpanAttribute(SemanticAttributes.approvalDecidedBy, .string(decidedBy.rawValue)),
                    SpanAttribute(SemanticAttributes.approvalApproved, .bool(approved)),
                ])
        }
    }

    /// Ends a function's `run {function}` span; `errorType` (the function's error code) when it failed.
    public func endFunctionRun(_ span: PendingSpan, function: String, errorType: String?, endTime: UInt64? = nil) {
        guard span.isRecording, processor != nil else { return }
        end(span, endTime: endTime) {
            var attributes = [SpanAttribute(SemanticAttributes.genAIToolName, .string(function))]
            var status = SpanStatus.unset
            if let errorType {
                attributes.append(SpanAttribute(SemanticAttributes.errorType, .string(errorType)))
                status = .error(description: errorType)
            }
            return SpanDescription("run \(function)", attributes: attributes, status: status)
        }
    }

    /// Ends an HTTP request's `{METHOD}` client span: the answer's `status` (4xx and 5xx set `error.type` to it),
    /// or, when there was no answer, `errorType`.
    /// - Parameters:
    ///   - redactedURL: The full URL without credentials (``EndpointURL/redacted(_:)``).
    ///   - serverAddress: The host, when known.
    ///   - serverPort: The port, when known.
    ///   - resendCount: How many times the same request was sent before.
    public func endHTTPRequest(
        _ span: PendingSpan, method: String, redactedURL: String, serverAddress: String?, serverPort: Int?,
        resendCount: Int = 0, status: Int?, errorType: String? = nil
    ) {
        guard span.isRecording, processor != nil else { return }
        end(span) {
            var attributes: [SpanAttribute] = []
            attributes.reserveCapacity(7)
            attributes.append(SpanAttribute(SemanticAttributes.httpRequestMethod, .string(method)))
            attributes.append(SpanAttribute(SemanticAttributes.urlFull, .string(redactedURL)))
            if let serverAddress {
                attributes.append(SpanAttribute(SemanticAttributes.serverAddress, .string(serverAddress)))
            }
            if let serverPort {
                attributes.append(SpanAttribute(SemanticAttributes.serverPort, .int(Int64(serverPort))))
            }
            if resendCount > 0 {
                attributes.append(SpanAttribute(SemanticAttributes.httpRequestResendCount, .int(Int64(resendCount))))
            }
            var spanStatus = SpanStatus.unset
            if let status {
                attributes.append(SpanAttribute(SemanticAttributes.httpResponseStatusCode, .int(Int64(status))))
                if status >= 400 {
                    attributes.append(SpanAttribute(SemanticAttributes.errorType, .string(String(status))))
                    spanStatus = .error(description: "HTTP \(status)")
                }
            } else {
                let type = errorType ?? "_OTHER"
                attributes.append(SpanAttribute(SemanticAttributes.errorType, .string(type)))
                spanStatus = .error(description: type)
            }
            return SpanDescription(method, kind: .client, attributes: attributes, status: spanStatus)
        }
    }
}
