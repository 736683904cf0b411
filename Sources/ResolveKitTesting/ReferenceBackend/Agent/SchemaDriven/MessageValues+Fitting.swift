import Foundation
import ResolveKitCore

extension MessageValues {
    /// Marks the first unused value with this text as given (to a parameter named with it).
    mutating func use(text: String) {
        if let index = values.indices.first(where: { !used.contains($0) && values[$0].text == text }) {
            used.insert(index)
        }
    }

    /// The first unused number that stands just before `name`'s words (at most two words between, as in
    /// `30 degrees celsius`) and fits `property`; it is used.
    mutating func takeNumber(before name: [String], fitting property: JSONValue) -> JSONValue? {
        guard let last = name.last, ["integer", "number"].contains(property["type"]?.stringValue ?? "") else {
            return nil
        }
        for index in values.indices where !used.contains(index) {
            guard case .number = values[index].kind else { continue }
            let after = values[index].position + 1
            let window = words[min(after, words.count)..<min(after + 3, words.count)]
            guard window.contains(where: { FunctionMatcher.words($0).contains(last) }),
                let value = Self.fitting(values[index], property)
            else { continue }
            used.insert(index)
            return value
        }
        return nil
    }

    /// The first unused value that fits `property`: for a number, a number within its bounds; for a string, a quoted
    /// text, else an id-like token, that meets its pattern and length. It is used.
    mutating func take(fitting property: JSONValue) -> JSONValue? {
        let kinds: [(Value.Kind) -> Bool] = [
            { if case .number = $0 { true } else { false } }, { $0 == .quoted }, { $0 == .identifier },
        ]
        for matches in kinds {
            for index in values.indices where !used.contains(index) && matches(values[index].kind) {
                guard let value = Self.fitting(values[index], property) else { continue }
                used.insert(index)
                return value
            }
        }
        return nil
    }

    /// `value` as the schema's type when it fits without change: a number within the bounds (whole for an
    /// integer), a string (not an enum's or a date's) meeting the pattern and length.
    static func fitting(_ value: Value, _ property: JSONValue) -> JSONValue? {
        switch (value.kind, property["type"]?.stringValue) {
        case (.number(let number), "integer") where number == number.rounded(),
            (.number(let number), "number"):
            if let minimum = property["minimum"]?.doubleValue, number < minimum { return nil }
            if let maximum = property["maximum"]?.doubleValue, number > maximum { return nil }
            return .number(number)
        case (.quoted, "string"), (.identifier, "string"):
            guard property["enum"] == nil, property["format"] == nil else { return nil }
            let text = value.text
            if let minimum = property["minLength"]?.doubleValue, text.count < Int(minimum) { return nil }
            if let maximum = property["maxLength"]?.doubleValue, text.count > Int(maximum) { return nil }
            if let pattern = property["pattern"]?.stringValue {
                guard let regex = try? Regex(pattern), text.firstMatch(of: regex) != nil else { return nil }
            }
            return .string(text)
        default:
            return nil
        }
    }
}
