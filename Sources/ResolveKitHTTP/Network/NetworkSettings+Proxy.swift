extension NetworkSettings {
    /// Where connections go.
    ///
    /// The settings win over the environment: with ``direct`` or ``server(_:)`` libcurl ignores `http_proxy`,
    /// `https_proxy`, `all_proxy` and `no_proxy`; with ``environment`` (the default) it reads them as always.
    public enum Proxy: Sendable {
        /// The proxy the environment names (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`), as libcurl
        /// reads them; none when they are unset.
        case environment
        /// No proxy, whatever the environment says.
        case direct
        /// This proxy, whatever the environment says.
        case server(ProxyServer)
    }

    /// A proxy server: its URL, the credentials it wants, and the hosts reached without it.
    public struct ProxyServer: Sendable {
        /// `http://host:port` (a plain proxy that tunnels TLS with `CONNECT`), `https://host:port` (TLS to the proxy
        /// too, verified with ``Trust``), `socks5h://host:port` (the proxy resolves names) or `socks5://host:port`.
        /// Without user or password: those come from ``credentials``.
        public var url: String
        /// Returns the user and password the proxy wants (HTTP Basic, or SOCKS5 user/password), called for each
        /// request; `nil` for a proxy that wants none. The password never reaches a log, an error or a description.
        public var credentials: (@Sendable () -> ProxyCredentials?)?
        /// Hosts reached directly (`CURLOPT_NOPROXY` syntax: `example.com` also covers its subdomains, `10.0.0.0/8`
        /// ranges, `*` for every host). Empty (the default): every host goes through the proxy.
        public var bypassHosts: [String]

        /// Creates a proxy server.
        public init(
            url: String, credentials: (@Sendable () -> ProxyCredentials?)? = nil, bypassHosts: [String] = []
        ) {
            self.url = url
            self.credentials = credentials
            self.bypassHosts = bypassHosts
        }
    }

    /// A proxy's user name and password.
    public struct ProxyCredentials: Sendable, CustomStringConvertible {
        /// The user name.
        public var user: String
        /// The password; never shown by ``description``.
        public var password: String

        /// Creates credentials.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// `user:***`.
        public var description: String { "\(user):***" }
    }
}
