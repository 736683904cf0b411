import Glibc
import ResolveKitTesting
import Testing

struct LoopbackServerProcessTests {
    /// A server program is ready only when the port's listening socket is its own: another server holding the port
    /// (while the program fails to bind it) does not count.
    @Test func aPortCountsAsTheProgramsOnlyWhenItsSocketIsTheProgramsOwn() async throws {
        try await LoopbackHTTPServer.withServer(handler: { _ in LoopbackResponse(status: 200) }) { server in
            #expect(LoopbackServerProcess.listens(getpid(), on: server.port))
            #expect(!LoopbackServerProcess.listens(getppid(), on: server.port))
        }
        let closed = freeLoopbackPort()
        #expect(!LoopbackServerProcess.listens(getpid(), on: closed))
    }

    /// `/proc/net/tcp` is longer than a page once about thirty sockets are open: a socket listed past the first
    /// page is found too (a single read found it only while the table was short).
    @Test func aSocketPastTheTablesFirstPageIsFound() async throws {
        var servers: [LoopbackHTTPServer] = []
        for _ in 0..<48 { servers.append(try LoopbackHTTPServer.start { _ in LoopbackResponse(status: 200) }) }
        for server in servers { #expect(LoopbackServerProcess.listens(getpid(), on: server.port)) }
        for server in servers { await server.stop() }
    }
}
