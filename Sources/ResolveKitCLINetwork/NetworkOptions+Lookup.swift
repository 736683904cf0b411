import Foundation
import ResolveKitCLI

/// A setting's value and where it came from: the flag or variable its errors name.
struct Given<Value> {
    var value: Value
    var source: String
}

/// Each setting from its flag, else from its variable.
struct Lookup {
    let options: NetworkOptions
    let environment: [String: String]

    /// The flag's last value, else its variable's (checked as the flag's value is).
    func text(_ flag: Flag) throws(UsageError) -> Given<String>? {
        if let value = options.given[flag.name]?.last { return Given(value: value, source: flag.name) }
        guard let value = try flag.variableValue(in: environment) else { return nil }
        return Given(value: value, source: flag.variable ?? flag.name)
    }

    /// A path, checked to be readable (a file) or an existing folder.
    func path(_ flag: Flag) throws(UsageError) -> Given<String>? {
        guard let given = try text(flag) else { return nil }
        try ParsedCommandLine.check(given.value, kind: flag.kind, naming: given.source + " ")
        return given
    }

    /// Whether the switch is on: given, else its variable's word.
    func isOn(_ flag: Flag) throws(UsageError) -> Given<Bool>? {
        if options.given[flag.name] != nil { return Given(value: true, source: flag.name) }
        guard let value = try flag.variableSwitch(in: environment) else { return nil }
        return Given(value: value, source: flag.variable ?? flag.name)
    }

    /// A repeatable flag's values when it was given at least once, else its variable's items split where
    /// `isSeparator` says, trimmed, empty ones left out.
    func list(_ flag: Flag, separatedBy isSeparator: (Character) -> Bool) throws(UsageError) -> Given<[String]>? {
        if let values = options.given[flag.name], !values.isEmpty { return Given(value: values, source: flag.name) }
        guard let text = try flag.variableValue(in: environment) else { return nil }
        let items = text.split(whereSeparator: isSeparator).map { $0.trimmingCharacters(in: .whitespaces) }
        return Given(value: items.filter { !$0.isEmpty }, source: flag.variable ?? flag.name)
    }
}
