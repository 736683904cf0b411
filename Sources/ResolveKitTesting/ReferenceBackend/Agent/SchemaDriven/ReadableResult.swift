import Foundation
import ResolveKitCore

/// A tool result as a person reads it: an object as short `key: value` lines, a list of objects one line per item,
/// byte counts in human units and ratios as percentages; never a JSON dump. What the default agent's answers say.
public enum ReadableResult {
    /// The lines for the result text the model saw, or `nil` when it is not a JSON object or array (a plain string
    /// result is quoted as it is).
    public static func lines(_ resultText: String) -> String? {
        guard let value = try? JSONValue(parsing: resultText) else { return nil }
        switch value {
        case .object(let object): return lines(object, indent: "").joined(separator: "\n")
        case .array(let items): return list("items", items, indent: "").joined(separator: "\n")
        default: return nil
        }
    }

    /// The error of a failed call's result, as the model sees it (`{"error": "User denied action"}`); `nil` for a
    /// result.
    public static func failure(_ resultText: String) -> String? {
        guard let object = (try? JSONValue(parsing: resultText))?.objectValue, object.count == 1 else { return nil }
        return object["error"]?.stringValue
    }

    static func lines(_ object: JSONObject, indent: String) -> [String] {
        object.keys.sorted().flatMap { key -> [String] in
            let label = words(key)
            switch object[key] ?? .null {
            case .object(let nested) where indent.isEmpty:
                return ["\(indent)\(label):"] + lines(nested, indent: indent + "  ")
            case .object(let nested):
                return ["\(indent)\(label): " + nested.keys.sorted().map { "\(words($0)) \(scalar(nested[$0]!, key: $0))" }.joined(separator: ", ")]
            case .array(let items):
                return list(label, items, indent: indent)
            case let other:
                return ["\(indent)\(label): \(scalar(other, key: key))"]
            }
        }
    }

    static func list(_ label: String, _ items: [JSONValue], indent: String) -> [String] {
        guard items.contains(where: { $0.objectValue != nil }) else {
            let texts = items.map { scalar($0, key: label) }
            guard texts.contains(where: { $0.count > 40 }) else {
                let shown = texts.prefix(10).joined(separator: ", ")
                return ["\(indent)\(label): \(items.isEmpty ? "none" : shown)\(items.count > 10 ? ", …" : "")"]
            }
            // Long texts (log lines) one per line.
            return ["\(indent)\(label) (\(items.count)):"] + texts.suffix(20).map { "\(indent)  \($0)" }
        }
        let shown = items.prefix(5).map { item -> String in
            let object = item.objectValue ?? [:]
            return "\(indent)  - " + object.keys.sorted().map { "\(words($0)) \(scalar(object[$0]!, key: $0))" }
                .joined(separator: ", ")
        }
        let more = items.count > 5 ? ["\(indent)  … and \(items.count - 5) more"] : []
        return ["\(indent)\(label) (\(items.count)):"] + shown + more
    }

    /// One value, in human units where its key says what it measures.
    static func scalar(_ value: JSONValue, key: String) -> String {
        let lowered = key.lowercased()
        switch value {
        case .number(let number) where lowered.hasSuffix("bytes") || lowered.hasSuffix("size"):
            return bytes(number)
        case .number(let number) where lowered.contains("percent"):
            return String(format: "%.0f %%", number)
        case .number(let number) where lowered.contains("ratio") || lowered.contains("fraction"):
            return String(format: "%.0f %%", number * 100)
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(format: "%.2f", number)
        case .string(let text): return text
        case .bool(let flag): return flag ? "yes" : "no"
        case .null: return "—"
        case .array(let items): return "\(items.count) items"
        case .object(let object): return "\(object.count) fields"
        }
    }

    /// `83.7 GB`, `512 KB`, `12 B` (decimal units, as disk tools print).
    static func bytes(_ count: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB", "PB"]
        var value = count
        var unit = 0
        while abs(value) >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int64(value)) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `availableBytes` → `available bytes`, `file_systems` → `file systems`.
    static func words(_ key: String) -> String {
        var result = ""
        for character in key {
            if character == "_" || character == "-" {
                result.append(" ")
            } else if character.isUppercase, !result.isEmpty, result.last != " " {
                result += " " + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
