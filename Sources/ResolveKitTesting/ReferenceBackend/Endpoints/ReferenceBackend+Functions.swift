import Foundation
import ResolveKitCore
import Synchronization

extension ReferenceBackend {
    static let functionKeys: Set<String> = [
        "name", "description", "parameters_schema", "timeout_seconds", "availability", "source", "pack_name",
        "requires_approval",
    ]

    /// `PUT /v1/functions/bulk`: full replace of the app's functions (WireProtocol §4.3).
    func bulkSync(_ request: LoopbackRequest) -> LoopbackResponse {
        state.withLock { $0.counters.functionRegistrations += 1 }
        if let denied = authenticate(request) { return denied }
        let parsed: JSONValue?
        switch Self.parseBody(request) {
        case .success(let value): parsed = value
        case .failure(let issue): return BackendReply.validation([issue])
        }
        var checker: FieldChecker
        switch FieldChecker.body(parsed) {
        case .success(let body): checker = body
        case .failure(let issue): return BackendReply.validation([issue])
        }
        checker.forbidExtra(["functions"])
        var submitted: [RegisteredFunction] = []
        if checker.object["functions"] == nil {
            checker.issues.append(
                .missing([.string("body"), .string("functions")], input: WireJSON(sorted: .object(checker.object))))
        } else if let entries = checker.object["functions"]?.arrayValue {
            if entries.count > 512 {
                checker.issue(
                    "functions", "too_long",
                    "List should have at most 512 items after validation, not \(entries.count)",
                    .array(entries),
                    .object([
                        ("field_type", .string("List")), ("max_length", .int(512)),
                        ("actual_length", .int(entries.count)),
                    ]))
            } else {
                for (index, entry) in entries.enumerated() {
                    let location: [WireJSON] = [.string("body"), .string("functions"), .int(index)]
                    switch FieldChecker.body(entry, location: location) {
                    case .failure(let issue): checker.issues.append(issue)
                    case .success(var item):
                        if let function = readFunction(&item) { submitted.append(function) }
                        checker.issues += item.issues
                    }
                }
            }
        } else {
            checker.issue("functions", "list_type", "Input should be a valid list", checker.object["functions"]!)
        }
        if !checker.issues.isEmpty { return BackendReply.validation(checker.issues) }
        guard Set(submitted.map(\.name)).count == submitted.count else { return BackendReply.internalError() }
        let stored = state.withLock { state in
            for index in state.functions.indices
            where !submitted.contains(where: { $0.name == state.functions[index].name }) {
                state.functions[index].isActive = false
            }
            return submitted.map { function in
                var function = function
                if let index = state.functions.firstIndex(where: { $0.name == function.name }) {
                    function.id = state.functions[index].id
                    function.createdAt = state.functions[index].createdAt
                    state.functions[index] = function
                } else {
                    state.functions.append(function)
                }
                return function
            }
        }
        return BackendReply.json(200, .array(stored.map { $0.wire(appID: configuration.appID) }))
    }

    private func readFunction(_ item: inout FieldChecker) -> RegisteredFunction? {
        item.forbidExtra(Self.functionKeys)
        let name = item.string("name", required: true, minLength: 1, maxLength: 255)
        let description = item.string("description", maxLength: 1000) ?? ""
        let schema = item.dictionary("parameters_schema") ?? [:]
        let timeout = item.int("timeout_seconds", range: 1...300) ?? 30
        let availability = item.dictionary("availability") ?? [:]
        let source = item.string("source") ?? "app_inline"
        if source != "app_inline", source != "playbook_pack" {
            let pattern = "^(app_inline|playbook_pack)$"
            item.issue(
                "source", "string_pattern_mismatch", "String should match pattern '\(pattern)'", .string(source),
                .object([("pattern", .string(pattern))]))
        }
        let packName = item.string("pack_name")
        let requiresApproval = item.bool("requires_approval") ?? true
        guard let name, item.issues.isEmpty else { return nil }
        return RegisteredFunction(
            id: Identifiers.uuid(), name: name, description: description, parametersSchema: .object(schema),
            isActive: true,
            timeoutSeconds: timeout, availability: .object(availability), source: source, packName: packName,
            requiresApproval: requiresApproval, createdAt: now)
    }

    /// `GET /v1/functions`: the app's active functions.
    func listFunctions(_ request: LoopbackRequest) -> LoopbackResponse {
        if let denied = authenticate(request) { return denied }
        let active = state.withLock { $0.functions.filter(\.isActive) }
        return BackendReply.json(200, .array(active.map { $0.wire(appID: configuration.appID) }))
    }

    /// `GET /v1/functions/eligible?session_id=`: the functions a turn of that session would offer (§4.4, §7.7).
    func eligibleFunctions(_ request: LoopbackRequest) -> LoopbackResponse {
        if let denied = authenticate(request) { return denied }
        guard let raw = request.query["session_id"] else {
            return BackendReply.validation([.missing([.string("query"), .string("session_id")], input: .null)])
        }
        guard let id = Identifiers.canonicalUUID(raw) else {
            var issue = ValidationIssue.invalidUUID(raw)
            issue.location = [.string("query"), .string("session_id")]
            return BackendReply.validation([issue])
        }
        let eligible = state.withLock { state in state.sessions[id].map { state.eligibleFunctions(for: $0) } }
        guard let eligible else { return BackendReply.sessionNotFound }
        return BackendReply.json(200, .array(eligible.map { $0.wire(appID: configuration.appID) }))
    }
}
