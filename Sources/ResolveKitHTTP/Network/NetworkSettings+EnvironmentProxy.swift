import Glibc

extension NetworkSettings {
    /// The variable that names a proxy for `url` as libcurl reads the environment (`http_proxy`, only in lower
    /// case, for `http://`; `https_proxy` or `HTTPS_PROXY` for `https://`; then `all_proxy` or `ALL_PROXY`), with
    /// its value redacted: e.g. `https_proxy=http://proxy.example.com:3128`. `nil` when none is set, or when
    /// `no_proxy` is `*`. Read only to explain a failure: `no_proxy` may still send this host directly.
    /// - Parameter variable: the environment's value of a name (this process's by default); empty counts as unset.
    package static func environmentProxy(
        for url: String, variable: (String) -> String? = processVariable
    ) -> String? {
        let lowered = url.lowercased()
        let names: [String]
        if lowered.hasPrefix("http://") {
            names = ["http_proxy", "all_proxy", "ALL_PROXY"]
        } else if lowered.hasPrefix("https://") {
            names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        } else {
            return nil
        }
        func value(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        if let bypass = value("no_proxy") ?? value("NO_PROXY"), bypass.filter({ $0 != " " }) == "*" { return nil }
        for name in names {
            guard let proxy = value(name) else { continue }
            return "\(name)=" + RedactedURL.redact(proxy.contains("://") ? proxy : "http://" + proxy)
        }
        return nil
    }

    /// This process's environment variable `name`.
    package static func processVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
