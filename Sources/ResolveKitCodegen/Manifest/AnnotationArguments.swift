/// The validated arguments of one `@ResolveKit(…)` annotation.
struct AnnotationArguments: Sendable, Hashable {
    /// The names the backend reserves for its own tools.
    static let reservedNames: Set<String> = ["kb_search", "escalate_to_human"]
    /// The labels the annotation accepts.
    static let labels = ["name", "description", "timeout", "requiresApproval"]
    /// The index of `name` in ``labels``.
    private static let nameLabel = 0

    var name: String?
    var nameLocation: SourceLocation
    var description: String?
    var descriptionLocation: SourceLocation?
    var timeout: Int?
    var timeoutLocation: SourceLocation?
    var requiresApproval = true
    var diagnostics: [Diagnostic] = []

    /// Checks every argument of `annotation`: known label, literal of the right type, value in range.
    init(_ annotation: Annotation) {
        nameLocation = annotation.location
        diagnostics = annotation.diagnostics
        // The labels seen so far, one bit per index in `labels`: there are four, and a set of them would cost an
        // allocation and a hash per argument.
        var seen: UInt8 = 0
        // By index: an argument is read where it is stored, not copied out first.
        let arguments = annotation.arguments
        for index in arguments.indices {
            guard let label = Self.labels.firstIndex(of: arguments[index].label) else {
                diagnostics.append(
                    .error(
                        "unknown annotation argument '\(arguments[index].label)'; expected name, description, timeout "
                            + "or requiresApproval",
                        at: arguments[index].labelLocation))
                continue
            }
            guard seen & 1 << label == 0 else {
                diagnostics.append(
                    .error(
                        "duplicate annotation argument '\(arguments[index].label)'", at: arguments[index].labelLocation)
                )
                continue
            }
            seen |= 1 << label
            read(arguments[index])
        }
        if name == nil, annotation.diagnostics.isEmpty, seen & 1 << Self.nameLabel == 0 {
            diagnostics.append(
                .error("@ResolveKit needs a name, as in @ResolveKit(name: \"set_lights\")", at: annotation.location))
        }
        // Only an annotation that is otherwise right: a wrong one is fixed first.
        if !diagnostics.contains(where: { $0.severity == .error }),
            let warning = ApprovalTime.warning(
                timeout: timeout, requiresApproval: requiresApproval, at: timeoutLocation)
        {
            diagnostics.append(warning)
        }
    }

    private mutating func read(_ argument: Annotation.Argument) {
        let at = argument.valueLocation
        switch (argument.label, argument.value) {
        case ("name", .string(let value)):
            name = value
            nameLocation = at
            if !Self.isValidName(value) {
                diagnostics.append(.error("function name '\(value)' must match [A-Za-z0-9_-]{1,64}", at: at))
            } else if Self.reservedNames.contains(value) {
                diagnostics.append(.error("function name '\(value)' is reserved by the backend", at: at))
            }
        case ("description", .string(let value)):
            description = value
            descriptionLocation = at
        case ("timeout", .integer(let value)):
            timeout = value
            timeoutLocation = at
            if !(1...300).contains(value) {
                diagnostics.append(.error("timeout must be between 1 and 300 seconds, not \(value)", at: at))
            }
        case ("requiresApproval", .bool(let value)):
            requiresApproval = value
        case ("name", _), ("description", _):
            diagnostics.append(.error("annotation argument '\(argument.label)' must be a string literal", at: at))
        case ("timeout", _):
            diagnostics.append(.error("annotation argument 'timeout' must be an integer literal", at: at))
        default:
            diagnostics.append(.error("annotation argument 'requiresApproval' must be true or false", at: at))
        }
    }

    /// Whether `name` matches `[A-Za-z0-9_-]{1,64}`.
    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { $0.isDigit || $0 == .minus || ($0 < 0x80 && $0.isIdentifierHead) }
    }
}
