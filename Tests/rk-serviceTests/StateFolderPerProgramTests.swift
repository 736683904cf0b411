import Foundation
import ResolveKitTesting
import Testing

/// Two programs on one machine, with the same backend and key and their state where it is by default, keep
/// folders of their own: neither is locked out by the other, nor sees the other's conversation.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StateFolderPerProgramTests {
    @Test func rkChatRunsBesideAnotherProgramOnTheSameBackendAndKey() async throws {
        let backend = ReferenceBackend(configuration: ReferenceBackend.Configuration(apiKeys: ["rk_dev"]))
        let server = try LoopbackHTTPServer.start(handler: backend.handler)
        let home = "/tmp/rk-state-home-" + UUID().uuidString.prefix(8).lowercased()
        defer {
            try? FileManager.default.removeItem(atPath: home)
            Task {
                await backend.stop()
                await server.stop()
            }
        }
        var environment = ServiceProcess.cleanEnvironment
        environment["XDG_STATE_HOME"] = home
        environment["RESOLVEKIT_API_KEY"] = "rk_dev"
        // A program of the user's own, holding its state folder while one of its calls runs.
        let own = try ServiceProcess(
            ["--base-url", server.baseURL, "--state-dir", "automatic", "--message", "run hold for me"],
            environment: environment, binary: ServiceProcess.built("rk-crash-probe"))
        #expect(await own.waitFor { $0.contains("started ") }, "\(own.stdout)\(own.stderr)")

        // rk-chat registers other functions for the same app: it may replace the program's only when told to.
        var replacing = environment
        replacing["RESOLVEKIT_REPLACE_FUNCTIONS"] = "1"
        let chat = try ServiceProcess(
            ["--base-url", server.baseURL, "-m", "what time is it?", "--approve", "all", "--history"],
            environment: replacing, binary: ServiceProcess.built("rk-chat"))
        chat.closeInput()
        #expect(await chat.exitStatus() == 0, "\(chat.stdout)\(chat.stderr)")
        #expect(!chat.stdout.contains("state_locked"))
        #expect(!chat.stdout.contains("run hold for me"), "rk-chat shows another program's conversation")

        own.signal(SIGKILL)
        _ = await own.exitStatus()
        let programs = try FileManager.default.contentsOfDirectory(atPath: home + "/resolvekit").sorted()
        #expect(programs == ["rk-chat", "rk-crash-probe"])
        let port = URL(string: server.baseURL)!.port!
        for program in programs {
            let folders = try FileManager.default.contentsOfDirectory(atPath: "\(home)/resolvekit/\(program)")
            #expect(folders.count == 1)
            #expect(folders.allSatisfy { $0.hasPrefix("127.0.0.1_\(port)-") && !$0.contains("rk_dev") })
        }
    }
}
