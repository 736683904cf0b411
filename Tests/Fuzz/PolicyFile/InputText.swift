import ResolveKitTools

/// The input as lines, to check where a problem says it is.
struct InputText {
    let lines: [[UInt8]]

    init(_ bytes: [UInt8]) {
        lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// The character at a 1-based line and column (columns count Unicode scalars), or `nil` when there is none.
    func character(line: Int, column: Int) -> Unicode.Scalar? {
        guard line >= 1, line <= lines.count, column >= 1,
            let text = String(validating: lines[line - 1], as: UTF8.self)
        else { return nil }
        let scalars = Array(text.unicodeScalars)
        return column <= scalars.count ? scalars[column - 1] : nil
    }

    /// A problem is inside the input: a syntax error anywhere up to the end of its line; any other problem at the
    /// first character of a value or member name. (Messages quote member names, so a name such as
    /// `not valid JSON$.x` must not be taken for the syntax error: the input's validity tells them apart.)
    func checkPosition(of problem: PolicyApprover.Problem, isJSON: Bool) {
        let place = "p.json:\(problem.line):\(problem.column)"
        check(
            problem.description == "\(place): \(problem.severity.rawValue): \(problem.message)",
            "the problem reads \(problem.description)")
        check(problem.line >= 1 && problem.line <= lines.count, "\(place) is beyond the last line, \(lines.count)")
        check(
            problem.column >= 1 && problem.column <= lines[problem.line - 1].count + 1,
            "\(place) is beyond the end of its line")
        guard isJSON else {
            check(problem.message.hasPrefix("not valid JSON: "), "invalid JSON got another problem: \(problem)")
            return
        }
        let starts = "{[\"-0123456789tfn".unicodeScalars
        guard let found = character(line: problem.line, column: problem.column), starts.contains(found) else {
            fatalError("PolicyFile fuzz property violated: \(problem) does not point at a value or member name")
        }
    }
}
