package import Foundation

/// Defaults read from the process environment.
package enum ResolveKitDefaults {
    /// The variable a base URL is read from when the configuration gives none.
    package static let baseURLVariable = "RESOLVEKIT_BASE_URL"

    /// `RESOLVEKIT_BASE_URL` as a URL (whatever its scheme: the start checks it), or `nil` when it is unset or empty.
    /// There is no built-in default: a missing setting must fail, not connect somewhere else.
    package static func environmentBaseURL(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        guard let text = environment[baseURLVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        return URL(string: text)
    }

    /// The variable that, set to `1`, lets a program's registration replace functions it does not register.
    package static let replaceFunctionsVariable = "RESOLVEKIT_REPLACE_FUNCTIONS"

    /// Whether `RESOLVEKIT_REPLACE_FUNCTIONS` is `1` (or `true`): the default of
    /// ``ResolveKitConfiguration/replacesOtherFunctions``, so an operator can allow one deploy that drops a function
    /// without a change to the program.
    package static func environmentReplacesFunctions(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        ["1", "true", "yes"].contains(environment[replaceFunctionsVariable]?.lowercased() ?? "")
    }

    /// The executable's name: the default program name of the automatic state folder.
    package static var programName: String { ProcessInfo.processInfo.processName }

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
