import Dispatch
import Foundation
import ResolveKitCLI
import ResolveKitHTTP
import ResolveKitTesting

/// `rk-devserver`: the reference backend on loopback, for trying clients without an account.
@main
enum DevServer {
    static func main() async {
        let tool = DevServerFlags.tool
        let parsed = tool.parseOrExit(version: ReferenceBackend.version)
        let options: DevServerOptions
        do {
            options = try DevServerOptions.make(parsed)
        } catch {
            tool.exit(with: error)
        }
        var configuration = options.configuration
        let environment = ProcessInfo.processInfo.environment
        let httpClient = environment["RK_DEV_LLM_URL"] == nil ? nil : HTTPClient()
        if let url = environment["RK_DEV_LLM_URL"], let httpClient {
            configuration.model = proxiedModel(url: url, environment: environment, client: httpClient)
        }
        let backend = ReferenceBackend(configuration: configuration)
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer.start(port: options.port, handler: logging(backend))
        } catch {
            let reason = (error as? LoopbackServerError)?.errno == EADDRINUSE ? "the port is in use; pick another with --port" : "\(error)"
            write("rk-devserver: error: cannot listen on 127.0.0.1:\(options.port): \(reason)\n", to: .standardError)
            exit(1)
        }
        write("rk-devserver listening on \(server.baseURL)\n")
        write("API key: \(options.configuration.apiKeys.sorted().joined(separator: ", "))\n")
        if let url = environment["RK_DEV_LLM_URL"] {
            write("Agent: the model at \(url)\n")
        } else {
            write("Agent: \(options.scriptPath.map { "the script in \($0)" } ?? "the built-in script")\n")
        }
        write("Press Ctrl-C to stop.\n")

        let received = await firstSignal([SIGINT, SIGTERM])
        write("rk-devserver: signal \(received), stopping\n")
        await backend.stop()
        await server.stop()
        await httpClient?.shutdown()
        write("rk-devserver: stopped\n")
    }

    /// Wraps the backend so every request is logged on one line: method, path, status, milliseconds.
    /// Only the path is logged, never the query or headers, so no key or token reaches the log.
    static func logging(_ backend: ReferenceBackend) -> LoopbackHandler {
        { request in
            let started = ContinuousClock.now
            let response = await backend.handle(request)
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            write("\(request.method) \(request.path) \(response.status) \(String(format: "%.1f", milliseconds))ms\n")
            return response
        }
    }

    /// An OpenAI-compatible model at `url` (`RK_DEV_LLM_MODEL` names the model, `RK_DEV_LLM_API_KEY` authorises).
    static func proxiedModel(url: String, environment: [String: String], client: HTTPClient) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            url: url, modelName: environment["RK_DEV_LLM_MODEL"] ?? "default", apiKey: environment["RK_DEV_LLM_API_KEY"]
        ) { url, headers, body in
            var request = HTTPRequest(method: .post, url: url, body: body)
            for header in headers { request.headers.add(name: header.name, value: header.value) }
            request.timeout = .seconds(120)
            let response = try await client.send(request)
            return (response.status, response.body)
        }
    }

    /// Waits for the first of `numbers` to arrive (handled by DispatchSource, the default action ignored).
    static func firstSignal(_ numbers: [Int32]) async -> Int32 {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        var iterator = signals.makeAsyncIterator()
        let received = await iterator.next() ?? SIGTERM
        for source in sources { source.cancel() }
        return received
    }

    static func write(_ text: String, to handle: FileHandle = .standardOutput) {
        handle.write(Data(text.utf8))
    }
}
