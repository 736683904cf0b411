extension NetworkSettings {
    /// Which certificate authorities verify the server (and an `https://` proxy).
    ///
    /// Through libcurl's `CURLOPT_CAINFO` (a PEM bundle file) and `CURLOPT_CAPATH` (a folder of certificates named
    /// by their subject hash, as `openssl rehash FOLDER` or `c_rehash` make it). Adding to the system store keeps
    /// the system's folder (`/etc/ssl/certs` on Debian and Ubuntu) beside yours.
    public struct Trust: Sendable, Hashable {
        /// A PEM file with one or more CA certificates; `nil` for none.
        public var caFile: String?
        /// A folder of hashed CA certificates; `nil` for none. It may not contain `:`.
        public var caDirectory: String?
        /// Whether the system store is trusted as well (`true`), or only ``caFile`` and ``caDirectory``.
        public var includesSystemStore: Bool
        /// How long libcurl keeps a CA store loaded from a file alone before reading it again
        /// (`CURLOPT_CA_CACHE_TIMEOUT`); a store that includes a folder is read for each new connection. Default
        /// 24 hours, libcurl's.
        public var cacheLifetime: Duration

        /// Creates trust settings; prefer ``system``, ``adding(caFile:caDirectory:)`` and
        /// ``only(caFile:caDirectory:)``.
        public init(
            caFile: String? = nil, caDirectory: String? = nil, includesSystemStore: Bool = true,
            cacheLifetime: Duration = .seconds(24 * 3600)
        ) {
            self.caFile = caFile
            self.caDirectory = caDirectory
            self.includesSystemStore = includesSystemStore
            self.cacheLifetime = cacheLifetime
        }

        /// The system store alone (the default).
        public static let system = Trust()

        /// The system store and your company's CAs.
        public static func adding(caFile: String? = nil, caDirectory: String? = nil) -> Trust {
            Trust(caFile: caFile, caDirectory: caDirectory, includesSystemStore: true)
        }

        /// Only your company's CAs: a public certificate no longer verifies.
        public static func only(caFile: String? = nil, caDirectory: String? = nil) -> Trust {
            Trust(caFile: caFile, caDirectory: caDirectory, includesSystemStore: false)
        }
    }

    /// A client certificate and its key for mutual TLS, both PEM files (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`).
    public struct ClientIdentity: Sendable {
        /// The certificate (with any intermediates after it).
        public var certificateFile: String
        /// The private key; `nil` when ``certificateFile`` holds it too.
        public var keyFile: String?
        /// Returns the key's passphrase, called for each new request (`CURLOPT_KEYPASSWD`); `nil` for a key without
        /// one. The passphrase goes to libcurl only: never to a log, an error or a description.
        public var passphrase: (@Sendable () -> String?)?

        /// Creates an identity.
        public init(certificateFile: String, keyFile: String? = nil, passphrase: (@Sendable () -> String?)? = nil) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.passphrase = passphrase
        }
    }

    /// A public-key pin, `sha256//` and the base64 SHA-256 of the key's DER `SubjectPublicKeyInfo`, as
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
    /// openssl enc -base64` prints it after the prefix.
    public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
        /// The pin as libcurl takes it, `sha256//…=`.
        public let rawValue: String

        /// Parses a pin.
        /// - Throws: ``HTTPError`` with code ``HTTPError/Code/invalidSettings`` unless `text` is `sha256//` followed
        ///   by the 44-character base64 text of 32 bytes.
        public init(_ text: String) throws(HTTPError) {
            let prefix = "sha256//"
            let hash = text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : ""
            guard hash.utf8.count == 44, hash.hasSuffix("="), !hash.dropLast().contains("="),
                hash.utf8.allSatisfy(Self.isBase64)
            else {
                throw HTTPError(
                    code: .invalidSettings,
                    message:
                        "A pinned public key must be sha256// and the base64 SHA-256 of the key (44 characters), "
                        + "not \"\(text.prefix(80))\"")
            }
            rawValue = text
        }

        /// The pin.
        public var description: String { rawValue }

        private static func isBase64(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }
    }
}
