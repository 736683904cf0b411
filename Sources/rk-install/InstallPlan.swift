/// What `rk-install` puts where, decided from the prefix and the folder of the built tools alone.
struct InstallPlan: Equatable {
    /// One file to install.
    struct Item: Equatable {
        /// Where its content comes from.
        enum Source: Equatable {
            /// A built tool, copied as it is.
            case binary(path: String)
            /// What the built tool at `path` prints with `arguments`.
            case output(of: String, arguments: [String])
        }

        var source: Source
        /// The absolute path it is installed at.
        var destination: String
        /// Its permissions.
        var mode: UInt32
    }

    /// The tools installed, in the order they are.
    static let tools = ["rk-chat", "rk-service", "rk-approve", "rk-mcp", "rk-devserver", "rk-codegen"]

    var items: [Item]
    /// Where the list of what was installed is kept, for `--uninstall` and the next install.
    var manifest: String

    /// The plan for the tools in `builtFolder`, installed under `prefix`: each tool, then its manual page and its
    /// bash and zsh completions, which the tool prints itself.
    init(prefix: String, builtFolder: String) {
        var root = prefix
        while root.hasSuffix("/") { root.removeLast() }
        manifest = "\(root)/share/resolvekit/rk-install.manifest"
        items = Self.tools.flatMap { tool -> [Item] in
            let built = builtFolder + "/" + tool
            return [
                Item(source: .binary(path: built), destination: "\(root)/bin/\(tool)", mode: 0o755),
                Item(
                    source: .output(of: built, arguments: ["--generate-manual"]),
                    destination: "\(root)/share/man/man1/\(tool).1", mode: 0o644),
                Item(
                    source: .output(of: built, arguments: ["--generate-completion-script", "bash"]),
                    destination: "\(root)/share/bash-completion/completions/\(tool)", mode: 0o644),
                Item(
                    source: .output(of: built, arguments: ["--generate-completion-script", "zsh"]),
                    destination: "\(root)/share/zsh/site-functions/_\(tool)", mode: 0o644),
            ]
        }
    }
}
