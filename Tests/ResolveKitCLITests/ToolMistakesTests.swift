import Foundation
import Testing

/// Every tool, run as a process, answers the same mistake in the same words: one line naming it (with the flag
/// or command it is most likely a misspelling of), then `See <tool> --help.`, exit 64, nothing on stdout.
@Suite(.timeLimit(.minutes(2)))
struct ToolMistakesTests {
    static let mistakes: [(tool: String, arguments: [String], message: String)] = [
        ("rk-chat", ["--aprove", "all"], "unknown option '--aprove'; did you mean '--approve'?"),
        ("rk-chat", ["--bogus"], "unknown option '--bogus'"),
        ("rk-chat", ["--message"], "--message needs a value"),
        ("rk-chat", ["--demo=yes"], "--demo takes no value, got '--demo=yes'"),
        (
            "rk-chat", ["--demo", "-m", "hi", "--approve", "maybe"],
            "--approve expects all, none, prompt or a readable file, got 'maybe'"
        ),
        ("rk-chat", ["hello"], "unexpected argument 'hello'"),
        ("rk-chat", ["--pni", "sha256//x"], "unknown option '--pni'; did you mean '--pin'?"),
        (
            "rk-chat", ["--pin", "sha1//abc"],
            "--pin expects sha256// and the base64 SHA-256 of the server's public key (44 characters), got 'sha1//abc'"
        ),
        ("rk-chat", ["--header", "X-Token abc123"], "--header expects 'Name: value', e.g. 'X-Tenant: acme'"),
        (
            "rk-chat", ["--proxy", "http://svc:hunter2@proxy.example.com:3128"],
            "--proxy carries a user or password, which ps and logs would show; give the user with --proxy-user and "
                + "the password in a file with --proxy-password-file"
        ),
        (
            "rk-chat", ["--client-key-passphrase", "hunter2"],
            "--client-key-passphrase would show the passphrase to every user in `ps`; put it in a file for "
                + "--client-key-passphrase-file FILE"
        ),
        ("rk-chat", ["--tls-min", "1.1"], "--tls-min expects 1.2 or 1.3, got '1.1'"),
        (
            "rk-chat", ["--client-cert", "/nonexistent/client.pem"],
            "--client-cert /nonexistent/client.pem does not exist"
        ),
        (
            "rk-chat", ["--demo", "--ca-file", "/etc/hostname"],
            "--demo runs its own backend on loopback; leave out --ca-file, which is for --base-url"
        ),
        ("rk-service", ["--polcy", "p.json"], "unknown option '--polcy'; did you mean '--policy'?"),
        ("rk-service", ["--drain-timeout", "soon"], "--drain-timeout expects a whole number in 0...3600, got 'soon'"),
        (
            "rk-service", ["--log-level", "loud"],
            "--log-level expects trace, debug, info, warning or error, got 'loud'"
        ),
        (
            "rk-service", ["--base-url", "agent.example.com"],
            "--base-url 'agent.example.com' is not an http:// or https:// URL"
        ),
        (
            "rk-service", ["--proxy-pasword-file", "/tmp/p"],
            "unknown option '--proxy-pasword-file'; did you mean '--proxy-password-file'?"
        ),
        (
            "rk-service", ["--proxy-password", "hunter2"],
            "--proxy-password would show the password to every user in `ps`; put it in a file for "
                + "--proxy-password-file FILE"
        ),
        (
            "rk-service", ["--no-proxy", "localhost"],
            "--no-proxy needs --proxy (or RESOLVEKIT_PROXY): without it the environment's https_proxy and no_proxy "
                + "apply"
        ),
        (
            "rk-service", ["--ca-only"],
            "--ca-only needs --ca-file or --ca-dir (or their variables): trusting only your own CAs, and none given, "
                + "nothing would verify"
        ),
        ("rk-service", ["--http-version", "3"], "--http-version expects auto, 2 or 1.1, got '3'; did you mean '2'?"),
        (
            "rk-service", ["--header", "Authorization: Bearer abc123"],
            "--header may not set Authorization: ResolveKit sets it itself (the API key, the proxy's credentials, the "
                + "capability token or the message's framing)"
        ),
        (
            "rk-service", ["--audit-log", "/nonexistent/rk/audit.jsonl"],
            "--audit-log /nonexistent/rk/audit.jsonl: the folder /nonexistent/rk does not exist"
        ),
        (
            "rk-service", ["--allowed-root", "/nonexistent/rk"],
            "--allowed-root /nonexistent/rk is not an existing folder"
        ),
        ("rk-mcp", ["--audit-log", "/tmp"], "--audit-log /tmp is a folder, not a file"),
        ("rk-chat", ["--state-dir", "/etc/hostname"], "--state-dir /etc/hostname is a file, not a folder"),
        ("rk-mcp", ["--allowed-root", "/nonexistent/rk"], "--allowed-root /nonexistent/rk is not an existing folder"),
        (
            "rk-chat", ["--trace-wire", "/nonexistent/rk/wire.txt"],
            "--trace-wire /nonexistent/rk/wire.txt: the folder /nonexistent/rk does not exist"
        ),
        ("rk-approve", ["--sokcet", "/tmp/s"], "unknown option '--sokcet'; did you mean '--socket'?"),
        ("rk-approve", ["--socket", "/tmp/s", "decline", "c1", "--hours", "2"], "--hours goes with remember"),
        ("rk-approve", ["--socket", "/tmp/s", "list", "--reason", "no"], "--reason goes with decline"),
        (
            "rk-approve", ["--socket", "/tmp/s", "remember", "f", "--hours", "0"],
            "--hours expects a number more than 0 and at most 8784, got '0'"
        ),
        (
            "rk-chat", ["--demo", "--history"],
            "--history goes with --message (the chat shows the conversation itself; /history too)"
        ),
        ("rk-approve", ["--socket", "/tmp/s", "lst"], "unknown command 'lst'; did you mean 'list'?"),
        (
            "rk-approve", ["--socket", "/tmp/s", "remember", "f", "--hours", "soon"],
            "--hours expects a number from 0 to 8784, got 'soon'"
        ),
        ("rk-approve", ["--socket"], "--socket needs a value"),
        ("rk-mcp", ["--aprove", "maybe"], "unknown option '--aprove'; did you mean '--approve'?"),
        ("rk-mcp", ["--approve", "maybe"], "--approve expects all, none, prompt or a readable file, got 'maybe'"),
        ("rk-mcp", ["--allowed-root", "relative"], "--allowed-root must be absolute, got 'relative'"),
        ("rk-devserver", ["--prot", "8080"], "unknown option '--prot'; did you mean '--port'?"),
        ("rk-devserver", ["--port", "70000"], "--port expects a whole number in 0...65535, got '70000'"),
        ("rk-devserver", ["--event-ids", "uuid"], "--event-ids expects redis or numeric, got 'uuid'"),
        ("rk-codegen", ["a.swift", "--outptu", "b.swift"], "unknown option '--outptu'; did you mean '--output'?"),
        ("rk-codegen", ["Sources/Nope", "--output", "x.swift"], "Sources/Nope does not exist"),
        (
            "rk-codegen", ["a.swift", "-o", "b.swift", "--cache", "/etc/hostname"],
            "--cache /etc/hostname is a file, not a folder"
        ),
        (
            "rk-codegen", ["a.swift", "-o", "b.swift", "--access", "open"],
            "--access expects internal or public, got 'open'"
        ),
        ("rk-install", ["--prefix", "relative"], "--prefix must be absolute, got 'relative'"),
        ("rk-install", ["--dryrun"], "unknown option '--dryrun'; did you mean '--dry-run'?"),
    ]

    @Test(arguments: mistakes)
    func aMistakeIsOneLineThenAPointerToHelpAndExit64(tool: String, arguments: [String], message: String) async throws {
        let run = try await BuiltTool.run(tool, arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr == "\(tool): error: \(message)\nSee \(tool) --help.\n")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test(arguments: BuiltTool.all)
    func everyToolIsWalkedWithAMisspelling(tool: String) {
        #expect(Self.mistakes.contains { $0.tool == tool && $0.message.contains("did you mean") })
    }

    @Test(arguments: BuiltTool.all)
    func everyToolPrintsItsVersionHelpCompletionsAndManual(tool: String) async throws {
        let version = try await BuiltTool.run(tool, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("\(tool) 1."))
        let help = try await BuiltTool.run(tool, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("\(tool): "))
        #expect(help.stdout.contains("\nUSAGE:\n"))
        #expect(help.stdout.contains("  -h, --help"))
        let bash = try await BuiltTool.run(tool, ["--generate-completion-script", "bash"])
        #expect(bash.stdout.hasSuffix("complete -F _\(tool.replacingOccurrences(of: "-", with: "_")) \(tool)\n"))
        let zsh = try await BuiltTool.run(tool, ["--generate-completion-script", "zsh"])
        #expect(zsh.stdout.hasPrefix("#compdef \(tool)\n"))
        let manual = try await BuiltTool.run(tool, ["--generate-manual"])
        #expect(manual.stdout.hasPrefix(".TH \(tool.uppercased().replacingOccurrences(of: "-", with: "\\-")) 1 "))
    }
}
