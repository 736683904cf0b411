import Foundation
import ResolveKitRedis
import Synchronization

/// This process's Redis clients, one per URL and command timeout: every key's store, a host's sweep and the shared
/// remembered approvals use one connection, on which the commands of many sessions are pipelined. Like the shared
/// HTTP client, they live as long as the process.
enum RedisConnections {
    private static let clients = Mutex<[String: RedisClient]>([:])

    /// The client for `url`, made on first use (it connects on its first command).
    /// - Throws: ``ResolveKitError/Code/invalidConfiguration`` when the URL is not a Redis URL; the message never
    ///   shows its password.
    static func client(for url: URL, settings: ReplicaSettings) throws(ResolveKitError) -> RedisClient {
        let redisURL: RedisURL
        do {
            redisURL = try RedisURL(parsing: url.absoluteString)
        } catch {
            throw ResolveKitError(
                .invalidConfiguration, "The Redis state location is not usable: \(error.message)", underlying: error)
        }
        let key =
            "\(redisURL.address)|\(redisURL.database)|\(redisURL.user ?? "")|\(redisURL.password ?? "")|"
            + "\(settings.commandTimeout)|\(settings.name)"
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            var configuration = RedisConfiguration(url: redisURL, clientName: "resolvekit")
            configuration.commandTimeout = settings.commandTimeout
            configuration.connectTimeout = min(settings.commandTimeout, configuration.connectTimeout)
            let client = RedisClient(configuration: configuration)
            clients[key] = client
            return client
        }
    }

    /// The lease store of `prefix` at `url`.
    static func leases(at url: URL, prefix: String, settings: ReplicaSettings) throws(ResolveKitError)
        -> RedisLeaseStore
    {
        RedisLeaseStore(client: try client(for: url, settings: settings), prefix: prefix)
    }
}
