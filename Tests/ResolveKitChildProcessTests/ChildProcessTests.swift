import Foundation
import Glibc
import ResolveKitChildProcess
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test func runsAProgramWithItsArgumentsEnvironmentAndDirectory() throws {
        let output = Pipe()
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "echo \"$1 $GREETING\"; pwd; exit 3", "sh", "a b"],
            environment: ["GREETING": "hello"], currentDirectory: "/tmp", standardOutput: .pipe(output))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitUntilExit() == .init(reason: .exit, status: 3))
        #expect(text == "a b hello\n/tmp\n")
        #expect(!child.isRunning)
    }

    @Test func feedsStandardInputThroughAPipe() throws {
        let input = Pipe()
        let output = Pipe()
        let child = try ChildProcess.spawn("/bin/cat", standardInput: .pipe(input), standardOutput: .pipe(output))
        input.fileHandleForWriting.write(Data("line\n".utf8))
        try input.fileHandleForWriting.close()
        #expect(output.fileHandleForReading.readDataToEndOfFile() == Data("line\n".utf8))
        #expect(child.waitUntilExit() == .init(reason: .exit, status: 0))
    }

    /// Both outputs are read at once: a child that fills its error pipe before it writes its output would block for
    /// ever if they were read one after the other.
    @Test func runCollectsBothOutputsWhateverTheirSizeAndOrder() throws {
        let output = try ChildProcess.run(
            "/bin/sh", arguments: ["-c", "seq 1 100000 >&2; echo done; exit 4"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(output.termination == .init(reason: .exit, status: 4))
        #expect(output.standardOutput == "done\n")
        #expect(output.standardError.split(separator: "\n").count == 100_000)
    }

    /// The parent's threads block signals; a child that inherited the mask would never see `SIGTERM`.
    @Test func aChildStartsWithNoSignalBlockedAndDiesOfTheSignalItIsSent() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["30"])
        #expect(child.waitUntilExit(timeout: .zero) == nil)
        #expect(child.isRunning)
        child.terminate()
        #expect(child.waitUntilExit(timeout: .seconds(10)) == .init(reason: .uncaughtSignal, status: SIGTERM))
        child.terminate()  // Ended: nothing is sent to a pid that may be another process's now.
    }

    /// A shell's background job is in its group: terminating the shell ends it too, and with it the last holder of
    /// the output pipe, so reading the output to its end returns.
    @Test func terminatingAChildEndsWhatItStartedInItsGroup() throws {
        let output = Pipe()
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "sleep 300 & echo $!; wait"], standardOutput: .pipe(output))
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            printed += data
        }
        let grandchild = try #require(pid_t(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .newlines)))
        child.terminate()
        #expect(child.waitUntilExit(timeout: .seconds(10)) == .init(reason: .uncaughtSignal, status: SIGTERM))
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while Self.isAlive(grandchild), ContinuousClock.now < deadline { usleep(10_000) }
        let outlived = Self.isAlive(grandchild)
        if outlived { kill(grandchild, SIGKILL) }
        #expect(!outlived, "the shell's background job \(grandchild) outlived it")
    }

    /// Whether `pid` runs: it exists and is not a zombie waiting for whoever adopted it.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ")
        else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }

    @Test func aChildStartsInAProcessGroupOfItsOwn() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["30"])
        defer { child.send(SIGKILL) }
        #expect(getpgid(child.pid) == child.pid)
        #expect(getpgid(child.pid) != getpgrp())
    }

    /// The kernel signals a child when the *thread* that started it ends; children are started from one thread that
    /// lives as long as the process, so a short-lived caller's thread may end first.
    @Test func aChildStartedFromAThreadThatEndsKeepsRunning() throws {
        final class Started {
            var child: Result<ChildProcess, ChildProcessError>?
        }
        let started = Started()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let started = Unmanaged<Started>.fromOpaque(context!).takeUnretainedValue()
            let spawn = { () throws(ChildProcessError) in try ChildProcess.spawn("/bin/sleep", arguments: ["30"]) }
            // `spawn` returns once the child runs `sleep`, so after it asked for the signal: the thread's end that
            // follows is one the child sees.
            started.child = Result(catching: spawn)
            return nil
        }, Unmanaged.passUnretained(started).toOpaque())
        try #require(created == 0)
        // Returns once the thread has ended: whatever its end would do to a child it started has been done.
        pthread_join(thread, nil)
        let child = try #require(started.child).get()
        defer { child.send(SIGKILL) }
        #expect(child.waitUntilExit(timeout: .milliseconds(300)) == nil)
    }

    /// The child has asked for its signal, set up its streams and run its program by the time `spawn` returns: no
    /// caller has to wait for it to get there.
    @Test func aChildRunsItsProgramWhenSpawnReturns() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["30"])
        defer { child.send(SIGKILL) }
        let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/exe")
        #expect(exe?.hasSuffix("/sleep") == true, "the child runs \(exe ?? "nothing")")
    }

    /// Children are started from a few threads that last as long as the process: a burst from many threads at once
    /// (a test run starting its fixtures) starts every one of them.
    @Test func manyChildrenStartedAtOnceAllStart() async throws {
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await offThePool {
                        try ChildProcess.run("/bin/echo", arguments: ["child \(index)"]).standardOutput
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(outputs) == Set((0..<12).map { "child \($0)\n" }))
    }

    /// `/proc/self/exe` is how a program starts itself again (rk-bench's children): `self` is the parent here.
    @Test func aPathUnderProcSelfNamesThisProcesssFile() throws {
        let echo = open("/bin/echo", O_RDONLY | O_CLOEXEC)
        try #require(echo >= 0)
        defer { close(echo) }
        let output = try ChildProcess.run("/proc/self/fd/\(echo)", arguments: ["started again"])
        #expect(output.termination == .init(reason: .exit, status: 0))
        #expect(output.standardOutput == "started again\n")
    }

    @Test func aFileThatIsNotExecutableIsATypedError() throws {
        let path = FileManager.default.temporaryDirectory.path + "/rk-not-executable-\(getpid())"
        try Data("echo no\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try ChildProcess.spawn(path)
        } throws: { error in
            let error = error as? ChildProcessError
            return error?.code == .spawnFailed && error?.errno == EACCES
        }
    }

    /// What only `execve` itself checks (a script without `#!`) comes back as its `errno`, not as an exit status.
    @Test func aFileExecveRefusesIsATypedError() throws {
        let path = FileManager.default.temporaryDirectory.path + "/rk-no-interpreter-\(getpid())"
        // Written by another process: a child this one starts meanwhile (another test's) would hold a descriptor
        // open for writing until it runs its program, and `execve` would refuse the file as busy (`ETXTBSY`).
        let script = "echo 'echo no' > \"$0\"; chmod 755 \"$0\""
        let written = try ChildProcess.run("/bin/sh", arguments: ["-c", script, path])
        try #require(written.termination == .init(reason: .exit, status: 0))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try ChildProcess.spawn(path)
        } throws: { error in
            let error = error as? ChildProcessError
            return error?.code == .spawnFailed && error?.errno == ENOEXEC
        }
    }

    @Test func aMissingDirectoryIsATypedError() {
        #expect {
            _ = try ChildProcess.spawn("/bin/true", currentDirectory: "/nonexistent/rk-directory")
        } throws: { error in
            let error = error as? ChildProcessError
            return error?.code == .spawnFailed && error?.errno == ENOENT
        }
    }

    @Test func aMissingExecutableIsATypedErrorNamingIt() {
        #expect {
            _ = try ChildProcess.spawn("/nonexistent/rk-tool")
        } throws: { error in
            let error = error as? ChildProcessError
            return error?.code == .spawnFailed && error?.errno == ENOENT
                && error?.description == "could not start /nonexistent/rk-tool: No such file or directory"
        }
    }

    /// Foundation's `Process.run()` could crash the whole process here (it over-reads `/proc/self/fd` entries once
    /// more than about 1,350 descriptors are open), and its children inherited what it failed to close.
    @Test func aParentHoldingThousandsOfDescriptorsStartsChildrenThatInheritNone() throws {
        let held = try HeldDescriptors(count: 2_000)
        defer { held.close() }
        for _ in 0..<20 {
            let output = Pipe()
            let child = try ChildProcess.spawn(
                "/bin/ls", arguments: ["/proc/self/fd"], standardInput: .nullDevice, standardOutput: .pipe(output))
            let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(child.waitUntilExit() == .init(reason: .exit, status: 0))
            // 0-2, and the descriptor `ls` opened to read the directory.
            let inherited = listed.split(separator: "\n").count - 4
            #expect(inherited == 0, "the child inherited \(inherited) descriptors")
        }
    }

    /// Every child of this package is a ``ChildProcess``: a `Process` that slipped back in would bring the crash back.
    @Test func noCodeOfThisPackageStartsAChildWithFoundationsProcess() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let name = "Process"  // Spelled apart, so this file does not find itself.
        var offenders: [String] = []
        for folder in ["Sources", "Functions", "Samples", "Tests"] {
            let files = FileManager.default.enumerator(atPath: root.appending(path: folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appending(path: folder + "/" + file), encoding: .utf8)
                let code = text.split(separator: "\n").filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                }
                let uses = ["\(name)()", "\(name).run("].contains { call in
                    code.contains { Self.line($0, calls: call) }
                }
                if uses { offenders.append(folder + "/" + file) }
            }
        }
        #expect(offenders.isEmpty, "Foundation's Process is used in \(offenders)")
    }

    /// Whether `line` holds `call` not preceded by an identifier character (`ChildProcess.run(` is not `Process.run(`).
    private static func line(_ line: Substring, calls call: String) -> Bool {
        var rest = line[...]
        while let found = rest.range(of: call) {
            guard found.lowerBound > line.startIndex else { return true }
            let before = line[line.index(before: found.lowerBound)]
            if !(before.isLetter || before.isNumber || before == "_") { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }
}

/// `count` descriptors open on `/dev/null`, with the soft open-file limit raised to hold them.
struct HeldDescriptors {
    let descriptors: [Int32]

    init(count: Int) throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        // Room for what the rest of the suite holds open meanwhile.
        let wanted = rlim_t(count + 4_096)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        descriptors = (0..<count).map { _ in open("/dev/null", O_RDONLY) }
        try #require(!descriptors.contains(-1), "could not open \(count) descriptors: raise the open-file limit")
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
    }
}
