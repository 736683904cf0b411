extension EventStreamTransport {
    /// Opens event streams with `client`: a GET with `Accept: text/event-stream`, served before the client's other
    /// requests (``HTTPRequest/isLongLived``), with no total deadline (the stream is long-lived; the idle watchdog
    /// guards it), and with a 2 KiB receive buffer: libcurl keeps it for the stream's life, a service holds many
    /// streams, and events are small (a larger one simply takes several reads). Error bodies are read up to
    /// `maxErrorBodyBytes`. Every connect goes with `network`: trust, client identity, pins, proxy, extra headers,
    /// observer and the low-speed floor.
    public static func http(
        _ client: HTTPClient, connectTimeout: Duration = .seconds(10), maxErrorBodyBytes: Int = 64 * 1024,
        network: NetworkSettings = NetworkSettings()
    ) -> EventStreamTransport {
        EventStreamTransport { request in
            var headers = HTTPHeaders()
            for field in request.headers { headers.add(name: field.name, value: field.value) }
            if !headers.contains(name: "Accept") { headers.add(name: "Accept", value: "text/event-stream") }
            var exchange = HTTPRequest(
                method: .get, url: request.url, headers: headers, connectTimeout: connectTimeout,
                receiveBufferBytes: 2048, isLongLived: true, network: network)
            exchange.stallSignal = request.stallSignal
            let response = try await client.execute(exchange)
            guard (200..<300).contains(response.status) else {
                let body = (try? await response.body.collect(upTo: maxErrorBodyBytes)) ?? []
                return EventStreamConnection(
                    status: response.status, body: body, chunks: AsyncThrowingStream { $0.finish() }, cancel: {})
            }
            // Pull-based: each chunk the stream's consumer asks for is read from the transfer then, so a slow
            // consumer pauses the transfer (back-pressure) instead of filling a buffer. The iterator is held only
            // so that releasing the stream aborts the transfer.
            let transfer = response.body.storage.transfer
            let iterator = response.body.makeAsyncIterator()
            let chunks = AsyncThrowingStream<[UInt8], any Error>(unfolding: {
                withExtendedLifetime(iterator) {}
                return try await transfer.nextChunk()
            })
            return EventStreamConnection(
                status: response.status, chunks: chunks, cancel: { transfer.cancel(.cancelledError) },
                abortStalled: { transfer.cancel(.stalledError) })
        }
    }
}
