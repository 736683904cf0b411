import Foundation
import Glibc
import ResolveKit
import ResolveKitCLI
import ResolveKitTerminal

/// `rk-approve`: decides the approvals an `rk-service` publishes on its socket.
@main
struct RKApprove {
    static func main() async {
        let tool = ApproveFlags.tool
        let parsed = tool.parseOrExit(version: ResolveKitRuntime.version)
        let options: ApproveOptions
        do {
            options = try ApproveOptions.make(parsed)
        } catch {
            tool.exit(with: error)
        }
        exit(await run(options))
    }

    static func run(_ options: ApproveOptions) async -> Int32 {
        if case .verifyAudit(let path) = options.action {
            let verification = ApprovalAuditTrail.verify(path: path)
            print(verification.isIntact ? "\(path): \(verification)" : "\(verification)")
            return verification.isIntact ? 0 : 1
        }
        let connection: ServiceConnection
        do {
            connection = try ServiceConnection(path: options.socketPath ?? "")
        } catch {
            FileHandle.standardError.write(Data("rk-approve: error: \(error)\n".utf8))
            return 69
        }
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        switch options.action ?? .watch {
        case .watch where interactive:
            return await Watch(connection: connection).run()
        case .watch, .list:
            if options.action == .watch {
                printError(
                    "rk-approve: no terminal, so nothing is decided; the pending calls follow. Decide with "
                        + "rk-approve --socket PATH approve|decline CALL_ID")
            }
            return await oneShot(["command": "approvals"], connection) { answer in
                print(
                    JSONValue.object(["pending": answer["pending"] ?? [], "remembered": answer["remembered"] ?? []])
                        .serialized(options: .sortedKeys))
            }
        case .approve(let callIDs):
            return await oneShot(
                ["command": "approve", "call_ids": .array(callIDs.map(JSONValue.string))], session: options.sessionID,
                connection)
        case .decline(let callIDs, let reason):
            var command: JSONObject = ["command": "decline", "call_ids": .array(callIDs.map(JSONValue.string))]
            if let reason { command["reason"] = .string(reason) }
            return await oneShot(command, session: options.sessionID, connection)
        case .edit(let callID, let text):
            let arguments = ApproveOptions.jsonObject(text) ?? [:]
            return await oneShot(
                ["command": "approve", "call_id": .string(callID), "arguments": arguments], session: options.sessionID,
                connection)
        case .remember(let function, let hours, let session, let conditions):
            let scope: JSONValue =
                hours.map { ["hours": .number($0)] } ?? session.map { ["session": .string($0)] } ?? "always"
            var command: JSONObject = ["command": "remember", "function": .string(function), "scope": scope]
            if let conditions { command["if"] = ApproveOptions.jsonObject(conditions) }
            return await oneShot(command, connection) { answer in
                print("remembered \(answer["remembered"]?["id"]?.stringValue ?? "?"): allow \(function)")
            }
        case .revoke(let id):
            return await oneShot(["command": "revoke", "remembered_id": .string(id)], connection)
        case .verifyAudit:
            return 64
        }
    }

    /// Writes `text` and a newline to stderr.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The operator's terminal, as recorded with each decision.
    static var terminalName: JSONValue {
        ttyname(STDIN_FILENO).map { .string(String(cString: $0)) } ?? .null
    }

    /// Sends one command and waits for its answer: exit 0 when the service did it, 1 with its reason otherwise.
    private static func oneShot(
        _ command: JSONObject, session: String? = nil, _ connection: ServiceConnection,
        onSuccess: (JSONValue) -> Void = { _ in print("ok") }
    ) async -> Int32 {
        var request = command
        if let session { request["session_id"] = .string(session) }
        request["id"] = "1"
        request["terminal"] = terminalName
        connection.send(request)
        connection.finishSending()
        for await line in connection.lines where line["id"] == "1" {
            guard line["status"] == "ok" else {
                FileHandle.standardError.write(Data("rk-approve: \(line["error"]?.stringValue ?? "refused")\n".utf8))
                return 1
            }
            onSuccess(line)
            return 0
        }
        FileHandle.standardError.write(
            Data("rk-approve: error: the service closed the connection without answering\n".utf8))
        return 69
    }
}
