/// Parsers for the small text files under `/proc` and `/etc`. Each returns `nil` for text it cannot read.
enum ProcParsers {
    /// The fields of `/proc/meminfo` in bytes (`MemTotal:  16318164 kB` gives `MemTotal` → 16709799936).
    static func memInfo(_ text: String) -> [String: UInt64] {
        var fields: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let words = line[line.index(after: colon)...].split(separator: " ")
            guard let first = words.first, let value = UInt64(first) else { continue }
            let multiplier: UInt64 = words.count > 1 && words[1].lowercased() == "kb" ? 1024 : 1
            fields[String(line[..<colon])] = value * multiplier
        }
        return fields
    }

    /// Memory totals from parsed meminfo; `MemAvailable` falls back to free + buffers + cache on kernels without it.
    static func memoryStatus(_ fields: [String: UInt64], unit: MemoryUnit) -> MemoryStatus? {
        guard let total = fields["MemTotal"], total > 0 else { return nil }
        let fallback = (fields["MemFree"] ?? 0) + (fields["Buffers"] ?? 0) + (fields["Cached"] ?? 0)
        let available = min(fields["MemAvailable"] ?? fallback, total)
        let used = total - available
        return MemoryStatus(
            unit: unit, total: unit.convert(total), available: unit.convert(available), used: unit.convert(used),
            usedPercent: (Double(used) / Double(total) * 10_000).rounded() / 100,
            swapTotal: unit.convert(fields["SwapTotal"] ?? 0), swapFree: unit.convert(fields["SwapFree"] ?? 0))
    }

    /// `/proc/loadavg`: `0.52 0.58 0.59 2/1024 12345`.
    static func loadAverage(_ text: String) -> LoadAverage? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count >= 4, let one = Double(words[0]), let five = Double(words[1]),
            let fifteen = Double(words[2])
        else { return nil }
        let tasks = words[3].split(separator: "/")
        guard tasks.count == 2, let runnable = Int(tasks[0]), let total = Int(tasks[1]) else { return nil }
        return LoadAverage(
            oneMinute: one, fiveMinutes: five, fifteenMinutes: fifteen, runnableTasks: runnable, totalTasks: total)
    }

    /// Seconds since boot, the first number of `/proc/uptime` (`350735.47 234388.90`).
    static func uptimeSeconds(_ text: String) -> Double? {
        guard let first = text.split(whereSeparator: \.isWhitespace).first, let seconds = Double(first),
            seconds >= 0
        else { return nil }
        return seconds
    }

    /// `3d 4h 5m` for 273_900 seconds; `0m` below a minute.
    static func humanDuration(_ seconds: Double) -> String {
        let minutes = Int(seconds) / 60
        let parts = [(minutes / 1440, "d"), (minutes / 60 % 24, "h"), (minutes % 60, "m")]
        let shown = parts.drop(while: { $0.0 == 0 }).map { "\($0.0)\($0.1)" }
        return shown.isEmpty ? "0m" : shown.joined(separator: " ")
    }

    /// The key/value pairs of an os-release file, quotes and backslash escapes removed.
    static func osRelease(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.drop(while: \.isWhitespace)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<equals])
            var value = Substring(trimmed[trimmed.index(after: equals)...]).trimmingSuffix(while: \.isWhitespace)
            if let quote = value.first, quote == "\"" || quote == "'", value.count >= 2, value.last == quote {
                value = value.dropFirst().dropLast()
            }
            fields[key] = unescape(value)
        }
        return fields
    }

    private static func unescape(_ value: Substring) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping || character != "\\" {
                result.append(character)
                escaping = false
            } else {
                escaping = true
            }
        }
        return result
    }
}

extension Substring {
    /// The substring without trailing characters that match `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
