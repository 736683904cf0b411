extension FlagGroup {
    /// How a tool reaches its backend through a company's network: trust, a client certificate for mutual TLS, pins,
    /// a proxy, extra headers, TLS and HTTP tuning. Each flag has a `RESOLVEKIT_…` variable that counts when the flag
    /// is not given. Secrets (the key's passphrase, the proxy's password) only come from files: the flags that would
    /// take them are refused, as `ps` shows every command line. Shared by every tool that talks HTTP to a backend
    /// (`rk-chat`, `rk-service`); `NetworkOptions` (module `ResolveKitCLINetwork`) turns them into
    /// `NetworkSettings`.
    package static let network = FlagGroup(
        "NETWORK OPTIONS",
        [
            .caFile, .caDirectory, .caOnly, .clientCertificate, .clientKey, .clientKeyPassphraseFile, .pin, .proxy,
            .proxyUser, .proxyPasswordFile, .noProxy, .header, .tlsMinimum, .httpVersion, .connectTimeout, .lowSpeed,
            .clientKeyPassphraseRefused, .proxyPasswordRefused,
        ])
}

extension Flag {
    /// `--ca-file FILE`.
    package static let caFile = Flag(
        "--ca-file", value: "FILE", kind: .file(mustExist: true),
        help: "Trust the CA certificates in this PEM file, beside the system store (or alone with --ca-only). Or "
            + "$RESOLVEKIT_CA_FILE.", variable: "RESOLVEKIT_CA_FILE")
    /// `--ca-dir DIR`.
    package static let caDirectory = Flag(
        "--ca-dir", value: "DIR", kind: .directory(mustExist: true, absolute: false),
        help: "Trust the CA certificates in this folder, named by subject hash (run openssl rehash DIR), beside the "
            + "system store. Or $RESOLVEKIT_CA_DIR.", variable: "RESOLVEKIT_CA_DIR")
    /// `--ca-only`.
    package static let caOnly = Flag(
        "--ca-only",
        help: "Trust only --ca-file and --ca-dir, not the system store: a public certificate no longer verifies. Or "
            + "RESOLVEKIT_CA_ONLY=1.", variable: "RESOLVEKIT_CA_ONLY")
    /// `--client-cert FILE`.
    package static let clientCertificate = Flag(
        "--client-cert", value: "FILE", kind: .file(mustExist: true),
        help: "Send this client certificate (PEM, intermediates after it) for mutual TLS. Or $RESOLVEKIT_CLIENT_CERT.",
        variable: "RESOLVEKIT_CLIENT_CERT")
    /// `--client-key FILE`.
    package static let clientKey = Flag(
        "--client-key", value: "FILE", kind: .file(mustExist: true),
        help: "The client certificate's private key (PEM), when it is not in the certificate's file. Or "
            + "$RESOLVEKIT_CLIENT_KEY.", variable: "RESOLVEKIT_CLIENT_KEY")
    /// `--client-key-passphrase-file FILE`.
    package static let clientKeyPassphraseFile = Flag(
        "--client-key-passphrase-file", value: "FILE", kind: .file(mustExist: true),
        help: "A file holding the client key's passphrase on one line. Or $RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE.",
        variable: "RESOLVEKIT_CLIENT_KEY_PASSPHRASE_FILE")
    /// `--pin PIN`, repeatable.
    package static let pin = Flag(
        "--pin", value: "PIN",
        help: "The server's public key must match this pin, sha256// and the base64 SHA-256 of the key (the README "
            + "shows the openssl command); repeat to stage a key rotation. Or $RESOLVEKIT_PINS, separated by ';'.",
        repeatable: true, variable: "RESOLVEKIT_PINS")
    /// `--proxy URL|direct`.
    package static let proxy = Flag(
        "--proxy", value: "URL",
        help: "Connect through this proxy: http://, https://, socks5:// or socks5h:// HOST:PORT, without user or "
            + "password; direct for none. It wins over https_proxy and no_proxy, which apply without it. Or "
            + "$RESOLVEKIT_PROXY.", variable: "RESOLVEKIT_PROXY")
    /// `--proxy-user NAME`.
    package static let proxyUser = Flag(
        "--proxy-user", value: "NAME",
        help: "The proxy's user name; its password comes from --proxy-password-file. Or $RESOLVEKIT_PROXY_USER.",
        variable: "RESOLVEKIT_PROXY_USER")
    /// `--proxy-password-file FILE`.
    package static let proxyPasswordFile = Flag(
        "--proxy-password-file", value: "FILE", kind: .file(mustExist: true),
        help: "A file holding the proxy's password on one line. Or $RESOLVEKIT_PROXY_PASSWORD_FILE.",
        variable: "RESOLVEKIT_PROXY_PASSWORD_FILE")
    /// `--no-proxy HOSTS`.
    package static let noProxy = Flag(
        "--no-proxy", value: "HOSTS",
        help: "With --proxy: hosts reached without it, separated by commas (example.com also covers its "
            + "subdomains; 10.0.0.0/8; * for every host). Or $RESOLVEKIT_NO_PROXY.", variable: "RESOLVEKIT_NO_PROXY")
    /// `--header 'NAME: VALUE'|@FILE`, repeatable.
    package static let header = Flag(
        "--header", value: "'NAME: VALUE'",
        help: "Add this header to every request, e.g. a gateway's tenant; repeat for several. @FILE reads one per "
            + "line from FILE, for a value ps must not show (a gateway token). It never replaces a header the "
            + "request carries (Authorization, the capability token). Or $RESOLVEKIT_HEADERS, one per line.",
        repeatable: true, variable: "RESOLVEKIT_HEADERS")
    /// `--tls-min 1.2|1.3`.
    package static let tlsMinimum = Flag(
        "--tls-min", value: "VERSION", kind: .choice(["1.2", "1.3"]),
        help: "The lowest TLS version accepted: 1.2 (the default) or 1.3. Or $RESOLVEKIT_TLS_MIN.",
        variable: "RESOLVEKIT_TLS_MIN")
    /// `--http-version auto|2|1.1`.
    package static let httpVersion = Flag(
        "--http-version", value: "VERSION", kind: .choice(["auto", "2", "1.1"]),
        help: "auto (the default: HTTP/2 over TLS where the server offers it), 2, or 1.1 for a proxy or gateway "
            + "that mishandles long HTTP/2 streams. Or $RESOLVEKIT_HTTP_VERSION.", variable: "RESOLVEKIT_HTTP_VERSION")
    /// `--connect-timeout SECONDS`.
    package static let connectTimeout = Flag(
        "--connect-timeout", value: "SECONDS", kind: .number(0.1...600),
        help: "How long name lookup, TCP, the proxy and the TLS handshake may take for each connection (default "
            + "10). Or $RESOLVEKIT_CONNECT_TIMEOUT.", variable: "RESOLVEKIT_CONNECT_TIMEOUT")
    /// `--low-speed BYTES/SECONDS`.
    package static let lowSpeed = Flag(
        "--low-speed", value: "BYTES/SECONDS",
        help: "Abort a transfer that stays below BYTES per second for SECONDS, e.g. 1/45: a stalled proxy ends the "
            + "event stream, which reconnects (default: no floor). Or $RESOLVEKIT_LOW_SPEED.",
        variable: "RESOLVEKIT_LOW_SPEED")
    /// `--client-key-passphrase`, refused.
    package static let clientKeyPassphraseRefused = Flag.refused(
        "--client-key-passphrase",
        because: "--client-key-passphrase would show the passphrase to every user in `ps`; put it in a file for "
            + "--client-key-passphrase-file FILE")
    /// `--proxy-password`, refused.
    package static let proxyPasswordRefused = Flag.refused(
        "--proxy-password",
        because: "--proxy-password would show the password to every user in `ps`; put it in a file for "
            + "--proxy-password-file FILE")
}
