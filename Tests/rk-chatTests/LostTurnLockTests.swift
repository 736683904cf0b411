import Foundation
import ResolveKitChildProcess
import Synchronization
import Testing

/// A session whose turn lock is held by a turn no process follows is replaced, whichever process lost the turn:
/// shown with real processes, as a user meets it — `rk-devserver --restart-mid-turn 600` loses a turn and keeps its
/// lock for ten minutes, and `rk-chat` runs one after another in the same state folder.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct LostTurnLockTests {
    static func binary(_ name: String) -> String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [besideTests.appending(path: name), besideTests.deletingLastPathComponent().appending(path: name)]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]).path
    }

    struct NotListening: Error {
        var firstLine: String
    }

    /// `rk-devserver` on a free loopback port, losing the next turn after its tool calls, its lock held 600 s.
    final class DevServer: Sendable {
        let process: ChildProcess
        let baseURL: String
        /// What it prints, read to the end on a thread of its own so it never blocks on a full pipe.
        let output = Pipe()

        /// Starts it with `options` (by default: lose the next turn, keeping its lock 600 s).
        init(folder: String, options: [String] = ["--restart-mid-turn", "600"]) throws {
            process = try ChildProcess.spawn(
                LostTurnLockTests.binary("rk-devserver"),
                arguments: ["--port", "0", "--api-key", "rk_wedge"] + options,
                standardInput: .nullDevice, standardOutput: .pipe(output), standardError: .nullDevice)
            var line = ""
            for byte in output.fileHandleForReading.availableBytes(until: "\n") { line.append(Character(UnicodeScalar(byte))) }
            guard let range = line.range(of: "http://") else {
                process.send(SIGKILL)
                throw NotListening(firstLine: line)
            }
            baseURL = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            let reading = output.fileHandleForReading
            Thread.detachNewThread { _ = reading.readDataToEndOfFile() }
        }

        func stop() {
            process.terminate()
            _ = process.waitUntilExit(timeout: .seconds(5))
        }
    }

    struct Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rk-wedge-\(UUID().uuidString)").path
        var keyFile: String { path + "/key" }
        var state: String { path + "/state" }

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("rk_wedge\n".utf8).write(to: URL(fileURLWithPath: keyFile))
        }
    }

    /// `rk-chat --message` against `server`, in `folder`'s state folder, with a 2 s turn watchdog.
    static func chat(
        _ server: DevServer, _ folder: Folder, started: @escaping @Sendable (ChildProcess) -> Void = { _ in }
    ) async throws -> (status: Int32, output: String) {
        let arguments = [
            "--base-url", server.baseURL, "--api-key-file", folder.keyFile, "--state-dir", folder.state,
            "--message", "What time is it?", "--approve", "all", "--turn-watchdog", "2",
        ]
        let output = try await offThePool {
            try ChildProcess.run(
                binary("rk-chat"), arguments: arguments,
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RESOLVEKIT_") },
                started: started)
        }
        return (output.termination.status, output.standardOutput + output.standardError)
    }

    @Test func afterATurnTheBackendLostTheNextProcessInTheSameFolderGetsItsAnswer() async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let server = try DevServer(folder: folder.path)
        defer { server.stop() }
        let first = try await Self.chat(server, folder)
        #expect(first.status == 1, "\(first.output)")
        #expect(first.output.contains("turn_lost") || first.output.contains("did not answer"), "\(first.output)")
        let started = ContinuousClock.now
        let second = try await Self.chat(server, folder)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("agent › "), "\(second.output)")
        #expect(!second.output.contains("A turn is already in progress"), "\(second.output)")
        #expect(second.output.contains("lost track of the last question"), "\(second.output)")
        // Replaced at the first conflict: the first process recorded that the session holds a lost turn's lock.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func afterAProcessDiedMidTurnTheNextReplacesTheSessionWithinOneWatchdogPeriod() async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let server = try DevServer(folder: folder.path)
        defer { server.stop() }
        // The first process is killed once its tool call ran: the backend then loses the turn, and nobody follows it.
        let killer = Mutex<ChildProcess?>(nil)
        let watcher = Thread {
            for _ in 0..<400 {
                if let process = killer.withLock({ $0 }),
                    (try? String(contentsOfFile: folder.state + "/journal.jsonl", encoding: .utf8))?.contains("answered")
                        == true
                {
                    process.send(SIGKILL)
                    return
                }
                usleep(25_000)
            }
        }
        watcher.start()
        let first = try await Self.chat(server, folder) { process in killer.withLock { $0 = process } }
        #expect(first.status == Int32(SIGKILL) || first.status == 1, "\(first.output)")
        let started = ContinuousClock.now
        let second = try await Self.chat(server, folder)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("agent › "), "\(second.output)")
        #expect(second.output.contains("lost track of the last question"), "\(second.output)")
        // One watchdog period (2 s) of silence, then a new session; well short of the lock's 600 s.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    /// The backend goes away mid-turn, once the call ran and while its result's POST is held: the turn's history
    /// cannot be read either, and `rk-chat` still ends, the turn lost after two watchdog periods, instead of
    /// waiting for ever.
    @Test func aBackendThatWentAwayMidTurnEndsTheOneShotWithTheTurnLost() async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let server = try DevServer(folder: folder.path, options: ["--delay", "POST /v1/sessions/*/tool-results:60000"])
        defer { server.stop() }
        let chat = Mutex<ChildProcess?>(nil)
        let watcher = Thread {
            for _ in 0..<2400 {
                let journal = try? String(contentsOfFile: folder.state + "/journal.jsonl", encoding: .utf8)
                if journal?.contains("answered") == true {
                    server.process.send(SIGKILL)
                    break
                }
                usleep(25_000)
            }
            // A one-shot that waits for ever would hold this test, and the run, until its time limit and beyond.
            for _ in 0..<3600 {
                guard chat.withLock({ $0 })?.isRunning ?? true else { return }
                usleep(25_000)
            }
            chat.withLock { $0 }?.send(SIGKILL)
        }
        watcher.start()
        let run = try await Self.chat(server, folder) { process in chat.withLock { $0 = process } }
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("get_local_time completed"), "\(run.output)")
        #expect(run.output.contains("The backend lost the turn"), "\(run.output)")
    }
}

extension FileHandle {
    /// Reads bytes until `delimiter` (included) or the end of the stream.
    fileprivate func availableBytes(until delimiter: Character) -> [UInt8] {
        var bytes: [UInt8] = []
        while let byte = try? read(upToCount: 1), let first = byte.first {
            bytes.append(first)
            if Character(UnicodeScalar(first)) == delimiter { break }
        }
        return bytes
    }
}
