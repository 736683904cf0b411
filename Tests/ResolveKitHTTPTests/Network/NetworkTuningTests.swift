import ResolveKitHTTP
import ResolveKitTesting
import Testing

/// The low-speed floor of the settings, against a loopback server that stops sending.
@Suite(.timeLimit(.minutes(1)))
struct NetworkTuningTests {
    @Test func aStreamBelowTheSpeedFloorEndsAsTooSlow() async throws {
        try await LoopbackHTTPServer.withServer(handler: holdOpenHandler) { server in
            try await HTTPClient.withClient { client in
                let network = NetworkSettings(lowSpeedLimit: .init(bytesPerSecond: 1, duration: .seconds(1)))
                var failure: HTTPError?
                do {
                    let response = try await client.execute(HTTPRequest(url: server.baseURL, network: network))
                    for try await _ in response.body {}
                } catch {
                    failure = error as? HTTPError
                }
                #expect(failure?.code == .tooSlow)
                #expect(failure?.curlCode == 28)
            }
        }
    }
}
