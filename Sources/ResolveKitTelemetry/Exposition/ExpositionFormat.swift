/// The text formats a registry renders: Prometheus' text format 0.0.4, and OpenMetrics 1.0 when a scraper asks.
public enum ExpositionFormat: Sendable, Hashable, CaseIterable {
    /// `text/plain; version=0.0.4`: what every Prometheus understands.
    case prometheusText
    /// `application/openmetrics-text; version=1.0.0`: counters as `name` families with `name_total` samples, a
    /// `# UNIT` line for `_seconds` and `_bytes` families, `# EOF` at the end.
    case openMetrics

    /// The `Content-Type` of a response in this format.
    public var contentType: String {
        switch self {
        case .prometheusText: "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }

    /// The format a scraper's `Accept` header prefers: OpenMetrics when it ranks
    /// `application/openmetrics-text` (version 1.0.0, 0.0.1 or none) above `text/plain`, the text format otherwise
    /// (also without a header, or one naming neither).
    public static func negotiate(accept: String?) -> ExpositionFormat {
        guard let accept else { return .prometheusText }
        var openMetrics = -1.0
        var text = -1.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: " \t").lowercased() }
            guard let type = parts.first else { continue }
            var quality = 1.0
            var version: String?
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[0] == "q" { quality = Double(pair[1]) ?? 0 }
                if pair[0] == "version" { version = pair[1] }
            }
            switch type {
            case "application/openmetrics-text" where version == nil || version == "1.0.0" || version == "0.0.1":
                openMetrics = max(openMetrics, quality)
            case "text/plain", "*/*", "text/*":
                text = max(text, quality)
            default:
                continue
            }
        }
        return openMetrics > 0 && openMetrics > text ? .openMetrics : .prometheusText
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }) else { return "" }
        let last = lastIndex(where: { !characters.contains($0) })!
        return String(self[first...last])
    }
}
