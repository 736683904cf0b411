import Foundation

/// Builds the client context sent with every session: platform `linux`, the OS from `/etc/os-release` with a
/// plain dotted version (kernel strings such as `6.8.0-45-generic` are not PEP 440 versions, WireProtocol §7.7),
/// the host app's version and build, and the SDK's name and version.
enum HostClientInfo {
    static func make(appVersion: String, appBuild: String?, osRelease: String? = nil, kernelRelease: String? = nil) -> ClientInfo {
        let release = parseOSRelease(osRelease ?? (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "")
        let name = release["NAME"] ?? "Linux"
        let version = release["VERSION_ID"].flatMap(plainVersion) ?? (kernelRelease ?? currentKernelRelease()).flatMap(plainVersion)
        return ClientInfo(
            platform: ResolveKitPlatform.linux.rawValue,
            osName: String(name.prefix(32)),
            osVersion: version.map { String($0.prefix(64)) },
            appVersion: String(appVersion.prefix(64)),
            appBuild: appBuild.map { String($0.prefix(64)) },
            sdkName: ResolveKitDefaults.sdkName,
            sdkVersion: ResolveKitDefaults.sdkVersion)
    }

    /// `KEY=value` lines; values may be quoted.
    static func parseOSRelease(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].hasPrefix("#") else { continue }
            var value = String(parts[1])
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            fields[String(parts[0])] = value
        }
        return fields
    }

    /// The leading dotted digits: `6.8.0-45-generic` → `6.8.0`, `24.04` → `24.04`; `nil` when none.
    static func plainVersion(_ text: String) -> String? {
        var result = ""
        for character in text {
            if character.isASCII && character.isNumber {
                result.append(character)
            } else if character == ".", !result.isEmpty, result.last != "." {
                result.append(character)
            } else {
                break
            }
        }
        while result.last == "." { result.removeLast() }
        return result.isEmpty ? nil : result
    }

    private static func currentKernelRelease() -> String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        return withUnsafeBytes(of: &names.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
