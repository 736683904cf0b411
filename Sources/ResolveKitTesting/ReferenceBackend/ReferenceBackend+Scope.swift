extension ReferenceBackend {
    /// Runs `body` with a new backend and stops it afterwards (cancelling its turns and finishing its streams),
    /// also when `body` throws.
    public static func withBackend<R>(
        configuration: Configuration = Configuration(), _ body: (ReferenceBackend) async throws -> R
    ) async rethrows -> R {
        let backend = ReferenceBackend(configuration: configuration)
        do {
            let result = try await body(backend)
            await backend.stop()
            return result
        } catch {
            await backend.stop()
            throw error
        }
    }

    /// Runs `body` with a new backend served by a ``LoopbackHTTPServer`` on 127.0.0.1, then stops the backend
    /// and the server, also when `body` throws.
    /// - Parameters:
    ///   - configuration: the backend's configuration.
    ///   - port: the port to listen on; 0 (the default) picks a free one (see ``LoopbackHTTPServer/baseURL``).
    /// - Throws: ``LoopbackServerError`` when the server cannot listen, or what `body` throws.
    public static func withServer<R>(
        configuration: Configuration = Configuration(), port: Int = 0,
        _ body: (ReferenceBackend, LoopbackHTTPServer) async throws -> R
    ) async throws -> R {
        try await withBackend(configuration: configuration) { backend in
            let server = try LoopbackHTTPServer.start(port: port, handler: backend.handler)
            do {
                let result = try await body(backend, server)
                await backend.stop()
                await server.stop()
                return result
            } catch {
                await backend.stop()
                await server.stop()
                throw error
            }
        }
    }
}
