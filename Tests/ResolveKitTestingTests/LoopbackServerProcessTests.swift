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
}
