extension Flag {
    /// The value of the flag's ``variable`` in `environment`, checked as the flag's own value is (a choice is one of
    /// its words, a number is in range), with the variable named in the error. A variable that is unset or empty
    /// gives `nil`. Whether a file exists is for ``ParsedCommandLine/check(_:kind:naming:)``.
    /// - Throws: ``UsageError``, e.g. `RESOLVEKIT_TLS_MIN expects 1.2 or 1.3, got '1.0'`.
    package func variableValue(in environment: [String: String]) throws(UsageError) -> String? {
        guard let variable, let value = environment[variable], !value.isEmpty else { return nil }
        guard takesValue else { return value }
        var named = self
        named.name = variable
        try CommandLineTool.check(value, of: named)
        return value
    }

    /// The value of a switch's ``variable``: `1`, `true`, `yes` or `on` turn it on, `0`, `false`, `no` or `off` off
    /// (any case); unset or empty gives `nil`.
    /// - Throws: ``UsageError`` for any other word, naming the variable.
    package func variableSwitch(in environment: [String: String]) throws(UsageError) -> Bool? {
        guard let variable, let value = environment[variable], !value.isEmpty else { return nil }
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw UsageError("\(variable) expects 1 or 0 (true or false), got '\(value)'")
        }
    }
}
