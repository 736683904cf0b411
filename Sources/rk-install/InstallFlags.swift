import ResolveKitCLI

/// `rk-install`'s flag table: what it parses, and what `--help`, the completions and the manual page say.
enum InstallFlags {
    /// Where the tools go unless `--prefix` says otherwise; the systemd unit in `Samples/rk-service` runs
    /// `<prefix>/bin/rk-service` from here.
    static let defaultPrefix = "/usr/local"

    static let prefix = Flag(
        "--prefix", value: "DIR", kind: .directory(mustExist: false, absolute: true),
        help: "Install under DIR: the tools in DIR/bin, their manual pages in DIR/share/man/man1, their completions in "
            + "DIR/share/bash-completion/completions and DIR/share/zsh/site-functions (default: \(defaultPrefix)).")
    static let dryRun = Flag("--dry-run", help: "Print what would be installed, and install nothing.")

    static let tool = CommandLineTool(
        name: "rk-install",
        summary: "install the ResolveKit tools built beside it, with their manual pages and shell completions",
        discussion: """
            Copies rk-chat, rk-service, rk-approve, rk-mcp, rk-devserver and rk-codegen from its own folder (where \
            `swift build -c release` put them) into the prefix, and writes each one's manual page and bash and zsh \
            completions, which each tool prints from the same flag table as its --help. A file that is already \
            there is replaced.
            """,
        usage: ["rk-install [--prefix DIR] [--dry-run]"],
        groups: [FlagGroup(nil, [prefix, dryRun])],
        sections: [
            .init(
                "EXAMPLES",
                """
                swift build -c release && sudo .build/release/rk-install
                swift build -c release && .build/release/rk-install --prefix ~/.local
                """),
            .init(
                "EXIT CODES",
                """
                0   installed
                1   a tool is missing beside rk-install (build them first), or a file could not be written
                64  usage error
                """),
        ])
}
