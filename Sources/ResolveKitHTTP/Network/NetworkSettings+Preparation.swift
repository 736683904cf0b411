extension NetworkSettings {
    /// The settings of one request, checked and with their providers called: what the curl thread applies. It
    /// holds the key passphrase and the proxy password for the transfer's life and is never printed.
    package struct Prepared: Sendable {
        /// How one of libcurl's CA options is set.
        package enum Location: Sendable, Hashable {
            /// libcurl's built-in default: the system store.
            case keep
            /// This file or folder list.
            case set(String)
            /// None.
            case clear
        }

        var caFile = Location.keep
        var caPath = Location.keep
        var caCacheSeconds: Int?
        var clientCertificate: String?
        var clientKey: String?
        var keyPassphrase: String?
        var pins: String?
        /// `nil`: the environment's proxy; `""`: none.
        var proxy: String?
        var bypassHosts: String?
        var proxyUser: String?
        var proxyPassword: String?
        var minimumTLSVersion = TLSVersion.tls1_2
        var httpVersion = HTTPVersionPreference.automatic
        var connectTimeout: Duration?
        var lowSpeedLimit: LowSpeedLimit?
        var observer: Observer?

        /// Whether ``NetworkSettings/proxy`` named a proxy.
        var usesConfiguredProxy: Bool { proxy.map { !$0.isEmpty } ?? false }
        /// Whether libcurl reads the proxy from the environment.
        var leavesProxyToEnvironment: Bool { proxy == nil }
    }

    /// Checks the settings, calls their providers, and adds their header fields to `request`.
    /// - Throws: ``HTTPError`` with ``HTTPError/Code/headerNotAllowed`` or ``HTTPError/Code/invalidSettings``;
    ///   nothing was sent.
    func prepare(_ request: inout HTTPRequest) async throws(HTTPError) -> Prepared {
        var prepared = Prepared()
        (prepared.caFile, prepared.caPath) = try Self.locations(for: trust, systemFolder: CurlGlobal.systemCAPath)
        if trust.caFile != nil, trust.caDirectory == nil {
            prepared.caCacheSeconds = Int(clamping: trust.cacheLifetime.components.seconds)
        }
        if let clientIdentity {
            guard !clientIdentity.certificateFile.isEmpty, clientIdentity.keyFile?.isEmpty != true else {
                throw HTTPError(code: .invalidSettings, message: "The client identity needs a certificate file path")
            }
            prepared.clientCertificate = clientIdentity.certificateFile
            prepared.clientKey = clientIdentity.keyFile
            prepared.keyPassphrase = clientIdentity.passphrase?()
        }
        if !pinnedPublicKeys.isEmpty { prepared.pins = pinnedPublicKeys.map(\.rawValue).joined(separator: ";") }
        try prepareProxy(&prepared)
        prepared.minimumTLSVersion = minimumTLSVersion
        prepared.httpVersion = httpVersion
        prepared.connectTimeout = connectTimeout
        prepared.lowSpeedLimit = lowSpeedLimit
        if observerIsListening?() ?? true { prepared.observer = observer }
        var extra = headers
        if let headerProvider {
            for field in await headerProvider(request.method, request.url) {
                extra.add(name: field.name, value: field.value)
            }
        }
        for field in extra {
            try Self.check(field, addedTo: request.headers)
        }
        for field in extra { request.headers.add(name: field.name, value: field.value) }
        return prepared
    }

    private func prepareProxy(_ prepared: inout Prepared) throws(HTTPError) {
        switch proxy {
        case .environment:
            break
        case .direct:
            prepared.proxy = ""
        case .server(let server):
            try Self.checkProxyURL(server.url)
            prepared.proxy = server.url
            prepared.bypassHosts = server.bypassHosts.joined(separator: ",")
            if let credentials = server.credentials?() {
                prepared.proxyUser = credentials.user
                prepared.proxyPassword = credentials.password
            }
        }
    }

    /// libcurl's CA file and folder for `trust`. Adding to the system store keeps libcurl's built-in bundle file, or
    /// its built-in folder (`systemFolder`) beside yours: OpenSSL reads a `:`-separated list of folders.
    package static func locations(
        for trust: Trust, systemFolder: String?
    ) throws(HTTPError) -> (file: Prepared.Location, path: Prepared.Location) {
        if trust.caFile?.isEmpty == true || trust.caDirectory?.isEmpty == true {
            throw HTTPError(code: .invalidSettings, message: "A CA file or folder path of the trust settings is empty")
        }
        if let folder = trust.caDirectory, folder.contains(":") {
            throw HTTPError(
                code: .invalidSettings,
                message: "The CA folder \(folder) contains ':', which separates folders for OpenSSL; move or link it")
        }
        guard trust.includesSystemStore else {
            guard trust.caFile != nil || trust.caDirectory != nil else {
                throw HTTPError(
                    code: .invalidSettings,
                    message: "Trusting only your own CAs needs a CA file or folder; without one nothing verifies")
            }
            return (trust.caFile.map { .set($0) } ?? .clear, trust.caDirectory.map { .set($0) } ?? .clear)
        }
        guard trust.caFile != nil else {
            guard let folder = trust.caDirectory else { return (.keep, .keep) }
            return (.keep, .set(systemFolder.map { folder + ":" + $0 } ?? folder))
        }
        guard let systemFolder else {
            throw HTTPError(
                code: .invalidSettings,
                message:
                    "This libcurl has no system CA folder to keep beside your CA file; trust only your own CAs with "
                    + "a bundle that also holds the public ones")
        }
        return (.set(trust.caFile!), .set(trust.caDirectory.map { $0 + ":" + systemFolder } ?? systemFolder))
    }

    /// Refuses a proxy URL that libcurl would not take as meant, or that carries a password.
    package static func checkProxyURL(_ url: String) throws(HTTPError) {
        let schemes = ["http", "https", "socks5", "socks5h"]
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        let authority = parts.count == 2 ? parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" } : ""
        guard parts.count == 2, schemes.contains(parts[0].lowercased()), !authority.isEmpty else {
            throw HTTPError(
                code: .invalidSettings,
                message:
                    "The proxy URL \(RedactedURL.redact(url)) is not http://, https://, socks5:// or socks5h:// with "
                    + "a host")
        }
        guard !authority.contains("@") else {
            throw HTTPError(
                code: .invalidSettings,
                message:
                    "The proxy URL \(RedactedURL.redact(url)) carries a user or password; give them through the "
                    + "proxy's credentials provider, which keeps them out of logs")
        }
    }

    /// Refuses a field that is malformed, protected, or already in `existing`. The value is never quoted: it may be
    /// a token.
    package static func check(_ field: HTTPHeaders.Field, addedTo existing: HTTPHeaders) throws(HTTPError) {
        let name = field.name
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw HTTPError(code: .headerNotAllowed, message: "The extra header name \"\(name)\" is not an HTTP token")
        }
        guard !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
            throw HTTPError(
                code: .headerNotAllowed, message: "The extra header \(name)'s value holds a line break or NUL")
        }
        guard !protectedHeaderNames.contains(name.lowercased()) else {
            throw HTTPError(
                code: .headerNotAllowed,
                message: "The extra header \(name) is protected: the network settings may not set it")
        }
        guard !existing.contains(name: name) else {
            throw HTTPError(
                code: .headerNotAllowed,
                message: "The extra header \(name) would replace the request's own \(name); extra headers only add")
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
