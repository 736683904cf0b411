/// Where a Redis server is and how to log in, parsed from `redis://[user:password@]host[:port][/db]` or
/// `unix://[user:password@]/path?db=N`.
///
/// User and password are percent-decoded (write `%40` for `@`, `%2F` for `/`, `%3A` for `:` in a user name). A
/// password alone is written `redis://:password@host`. `rediss://` (TLS) is refused: TLS to Redis is out of scope,
/// run a TLS proxy on the machine and connect to it. ``description`` never shows the password.
public struct RedisURL: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// How to reach the server.
    public enum Address: Sendable, Hashable, CustomStringConvertible {
        /// A host name, IPv4 or IPv6 address (without brackets) and port.
        case tcp(host: String, port: Int)
        /// The path of a Unix socket.
        case unix(path: String)

        /// `host:port`, `[::1]:port` or the socket path.
        public var description: String {
            switch self {
            case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): return path
            }
        }
    }

    /// The port Redis listens on unless told otherwise.
    public static let defaultPort = 6379

    /// How to reach the server.
    public var address: Address
    /// The ACL user, or `nil` for the default user.
    public var user: String?
    /// The password, or `nil` to skip `AUTH`.
    public var password: String?
    /// The logical database (`SELECT`), 0 by default.
    public var database: Int

    /// Creates a URL value from its parts.
    public init(address: Address, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.address = address
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses `text`.
    ///
    /// - Throws: ``RedisError`` with ``RedisError/Code/invalidURL`` naming the part that is wrong.
    public init(parsing text: String) throws(RedisError) {
        let lower = text.lowercased()
        if lower.hasPrefix("redis://") {
            self = try Self.tcp(String(text.dropFirst("redis://".count)))
        } else if lower.hasPrefix("unix://") {
            self = try Self.unix(String(text.dropFirst("unix://".count)))
        } else if lower.hasPrefix("rediss://") {
            throw Self.invalid(
                "rediss:// (TLS) is not supported: run a TLS proxy such as stunnel on this machine and connect to it "
                    + "with redis://127.0.0.1:<port>")
        } else {
            throw Self.invalid("a Redis URL starts with redis:// or unix://, e.g. redis://127.0.0.1:6379/0")
        }
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var credentials = ""
        if user != nil || password != nil {
            credentials = (user.map(Self.encode) ?? "") + (password == nil ? "" : ":***") + "@"
        }
        switch address {
        case .tcp:
            return "redis://\(credentials)\(address)/\(database)"
        case .unix(let path):
            return "unix://\(credentials)\(path)" + (database == 0 ? "" : "?db=\(database)")
        }
    }

    /// The same as ``description``: the password never shows, not even in `debugPrint` or a containing value's
    /// printout.
    public var debugDescription: String { description }

    private static func tcp(_ rest: String) throws(RedisError) -> RedisURL {
        if rest.contains("?") || rest.contains("#") {
            throw invalid(
                "a redis:// URL takes no query or fragment; put the database in the path: redis://host:port/2")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let (user, password, hostPort) = try credentials(String(rest[..<slash]))
        let (host, port) = try hostAndPort(hostPort)
        let path = rest[slash...].dropFirst()
        let database = try path.isEmpty ? 0 : number(String(path), what: "database in the path")
        return RedisURL(address: .tcp(host: host, port: port), user: user, password: password, database: database)
    }

    private static func unix(_ rest: String) throws(RedisError) -> RedisURL {
        let question = rest.firstIndex(of: "?") ?? rest.endIndex
        let beforeQuery = String(rest[..<question])
        guard let slash = beforeQuery.firstIndex(of: "/") else {
            throw invalid("a unix:// URL needs an absolute socket path: unix:///run/redis/redis.sock?db=0")
        }
        let (user, password, host) = try credentials(String(beforeQuery[..<slash]))
        guard host.isEmpty else {
            throw invalid("a unix:// URL has no host: write three slashes, unix:///run/redis/redis.sock")
        }
        let path = String(beforeQuery[slash...])
        guard path.count > 1 else { throw invalid("a unix:// URL needs a socket path after unix://") }
        var database = 0
        for item in rest[question...].dropFirst().split(separator: "&") {
            guard item.hasPrefix("db=") else {
                throw invalid("a unix:// URL takes only ?db=N; \(item.prefix { $0 != "=" }) is unknown")
            }
            database = try number(String(item.dropFirst(3)), what: "db")
        }
        return RedisURL(address: .unix(path: path), user: user, password: password, database: database)
    }

    /// Splits `[user:password@]rest`.
    private static func credentials(_ authority: String) throws(RedisError) -> (String?, String?, String) {
        guard let at = authority.lastIndex(of: "@") else { return (nil, nil, authority) }
        let info = authority[..<at]
        guard let colon = info.firstIndex(of: ":") else {
            throw invalid(
                "the part before @ needs a colon: user:password@ for an ACL user, :password@ for a password alone")
        }
        let user = try decode(String(info[..<colon]), what: "user")
        let password = try decode(String(info[info.index(after: colon)...]), what: "password")
        return (user.isEmpty ? nil : user, password, String(authority[authority.index(after: at)...]))
    }

    private static func hostAndPort(_ text: String) throws(RedisError) -> (String, Int) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid("an IPv6 address lacks its closing ]") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("only :port may follow an IPv6 address in brackets") }
                portText = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            if portText?.contains(":") == true {
                throw invalid("an IPv6 address goes in brackets: redis://[::1]:6379")
            }
        }
        guard !host.isEmpty else { throw invalid("the URL has no host: redis://127.0.0.1:6379") }
        guard let portText else { return (String(host), defaultPort) }
        let port = try number(String(portText), what: "port")
        guard (1...65535).contains(port) else { throw invalid("the port \(port) is outside 1–65535") }
        return (String(host), port)
    }

    private static func number(_ text: String, what: String) throws(RedisError) -> Int {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text)
        else { throw invalid("the \(what) '\(text)' is not a number") }
        return value
    }

    /// Percent-decodes a user or password; the password's text is never put in the error.
    private static func decode(_ text: String, what: String) throws(RedisError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw invalid("the \(what) has a % not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }

    private static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 128,
                scalar.properties.isAlphabetic || (48...57).contains(byte) || "-._~".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static func invalid(_ message: String) -> RedisError { RedisError(.invalidURL, message) }
}
