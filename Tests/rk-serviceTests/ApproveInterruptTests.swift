import Foundation
import ResolveKitChildProcess
import Glibc
import Testing

/// Ctrl-C at rk-approve's prompt does what its banner says: what the prompt shows is declined, then it quits.
@Suite(.timeLimit(.minutes(2)))
struct ApproveInterruptTests {
    @Test func ctrlCAtThePromptDeclinesWhatItShowsAndQuits() async throws {
        try await ServiceHarness.run { harness in
            let socket = harness.directory + "/rk.sock"
            let policy = harness.directory + "/policy.json"
            try Data(#"{"default": "ask"}"#.utf8).write(to: URL(fileURLWithPath: policy))
            let service = try harness.launch([
                "--socket", socket, "--policy", policy, "--allowed-root", harness.directory,
            ])
            #expect(await service.waitFor(\.stderr) { $0.contains(#"msg="ready""#) })
            let watcher = try ApproveEndToEndTests.inTerminal(["--socket", socket])
            #expect(await watcher.waitFor { $0.contains("watching for calls") })
            let client = try UnixStreamClient(path: socket)
            client.send(#"{"id": "m1", "message": "list_directory path: \#(harness.directory)"}"#)
            #expect(await watcher.waitFor { $0.contains("Approve 1 tool call?") })

            watcher.send("\u{03}")
            #expect(await watcher.exitStatus(timeout: .seconds(10)) == 130, "\(watcher.stdout)")
            #expect(watcher.stdout.contains("the calls shown were declined; quitting"))
            let reply = try #require(await offThePool { client.readLine() })
            #expect(reply.contains(#""status":"declined""#) && reply.contains("Declined at the terminal"), "\(reply)")
            service.signal(SIGTERM)
            _ = await service.exitStatus()
        }
    }
}
