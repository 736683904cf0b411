package import Foundation

/// Defaults read from the process environment.
package enum ResolveKitDefaults {
    /// `RESOLVEKIT_BASE_URL`, else `https://agent.example.com` (as the reference SDK).
    package static var baseURL: URL {
        if let text = ProcessInfo.processInfo.environment["RESOLVEKIT_BASE_URL"], let url = URL(string: text),
            url.scheme != nil
        {
            return url
        }
        return URL(string: "https://agent.example.com")!
    }

    /// The SDK name sent in the client context.
    package static let sdkName = "resolvekit-linux-sdk"
    /// The SDK version sent in the client context; a 1.x version passes the backend's compat gate.
    package static let sdkVersion = ResolveKitVersion.current

    /// The state root: `$XDG_STATE_HOME/resolvekit`, else `~/.local/state/resolvekit`.
    package static var stateRoot: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/resolvekit" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/resolvekit"
    }

    /// The locale from `LC_ALL`, `LC_MESSAGES` or `LANG` as a BCP 47 tag (`de_DE.UTF-8` → `de-DE`); `nil` for
    /// `C`/`POSIX` or when unset.
    package static func environmentLocale(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let base = value.split(separator: ".").first.map(String.init) ?? value
            let tag = (base.split(separator: "@").first.map(String.init) ?? base).replacingOccurrences(of: "_", with: "-")
            if tag == "C" || tag == "POSIX" { return nil }
            return tag
        }
        return nil
    }
}
