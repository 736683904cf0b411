import Foundation
import ResolveKitCLI
import ResolveKitHTTP

extension NetworkOptions {
    /// `--proxy`, `--proxy-user`, `--proxy-password-file`, `--no-proxy`. Without `--proxy` (or `RESOLVEKIT_PROXY`)
    /// the environment's `https_proxy` and `no_proxy` apply, as libcurl reads them; with it, they are ignored.
    func resolveProxy(
        _ lookup: Lookup, readFile: (String) throws -> [UInt8], into resolved: inout Resolved
    ) throws(UsageError) {
        let proxy = try lookup.text(.proxy)
        let user = try lookup.text(.proxyUser)
        let passwordFile = try lookup.path(.proxyPasswordFile)
        let bypass = try lookup.text(.noProxy)
        let dependents = [user, passwordFile, bypass].compactMap { $0 }
        guard let proxy else {
            if let other = dependents.first {
                throw UsageError(
                    "\(other.source) needs --proxy (or RESOLVEKIT_PROXY): without it the environment's https_proxy "
                        + "and no_proxy apply")
            }
            return
        }
        if proxy.value == "direct" {
            if let other = dependents.first {
                throw UsageError("\(other.source) does not apply with \(proxy.source) direct, which uses no proxy")
            }
            resolved.settings.proxy = .direct
            resolved.summary["proxy"] = "direct"
            return
        }
        try Self.checkProxy(proxy)
        var server = NetworkSettings.ProxyServer(url: proxy.value)
        switch (user, passwordFile) {
        case (let user?, let passwordFile?):
            guard !user.value.isEmpty else { throw UsageError("\(user.source) needs a value") }
            let password = try Self.secret(in: passwordFile, readFile: readFile, holding: "the proxy's password")
            resolved.secrets.append(password)
            let credentials = NetworkSettings.ProxyCredentials(user: user.value, password: password)
            server.credentials = { credentials }
            resolved.summary["proxy_user"] = user.value
        case (let user?, nil):
            throw UsageError("\(user.source) needs --proxy-password-file (or RESOLVEKIT_PROXY_PASSWORD_FILE)")
        case (nil, let passwordFile?):
            throw UsageError("\(passwordFile.source) needs --proxy-user (or RESOLVEKIT_PROXY_USER)")
        case (nil, nil):
            break
        }
        if let bypass {
            server.bypassHosts = bypass.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            resolved.summary["no_proxy"] = server.bypassHosts.joined(separator: ",")
        }
        resolved.settings.proxy = .server(server)
        resolved.summary["proxy"] = proxy.value
    }

    /// Refuses a proxy URL with a user or password in it (without showing it: it is on its way to a log), and one
    /// libcurl would not take as meant.
    static func checkProxy(_ proxy: Given<String>) throws(UsageError) {
        let afterScheme = proxy.value.firstRange(of: "://").map { proxy.value[$0.upperBound...] } ?? proxy.value[...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else {
            throw UsageError(
                "\(proxy.source) carries a user or password, which ps and logs would show; give the user with "
                    + "--proxy-user and the password in a file with --proxy-password-file")
        }
        do {
            try NetworkSettings.checkProxyURL(proxy.value)
        } catch {
            throw UsageError(
                "\(proxy.source) expects http://, https://, socks5:// or socks5h:// and a host (e.g. "
                    + "http://proxy.example.com:3128), or direct, got '\(proxy.value)'")
        }
    }
}
