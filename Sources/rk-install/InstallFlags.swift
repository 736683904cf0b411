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
    static let uninstall = Flag(
        "--uninstall",
        help: "Remove what the last install put under the prefix (its list is DIR/share/resolvekit/"
            + "rk-install.manifest); a file changed since it was installed is kept.")
    static let dryRun = Flag("--dry-run", help: "Print what would be installed or removed, and change nothing.")

    static let tool = CommandLineTool(
        name: "rk-install",
        summary: "install the ResolveKit tools built beside it, with their manual pages and shell completions",
        discussion: """
            Copies rk-chat, rk-service, rk-approve, rk-mcp, rk-devserver and rk-codegen from its own folder (where \
            `swift build -c release` put them) into the prefix, and writes each one's manual page and bash and zsh \
            completions, which each tool prints from the same flag table as its --help. A file that is already \
            there is replaced. It lists what it installed, with each file's size and checksum, in \
            DIR/share/resolvekit/rk-install.manifest: --uninstall removes exactly those files, and the next install \
            removes those it no longer installs; either keeps a file whose content changed since.
            """,
        usage: ["rk-install [--prefix DIR] [--dry-run]", "rk-install --uninstall [--prefix DIR] [--dry-run]"],
        groups: [FlagGroup(nil, [prefix, uninstall, dryRun])],
        sections: [
            .init(
                "EXAMPLES",
                """
                swift build -c release && sudo .build/release/rk-install
                swift build -c release && .build/release/rk-install --prefix ~/.local
                .build/release/rk-install --uninstall --prefix ~/.local
                """),
            .init(
                "EXIT CODES",
                """
                0   installed (or, with --uninstall, removed)
                1   a tool is missing beside rk-install (build them first), a file could not be written or removed,
                    or --uninstall found no manifest or kept a changed file
                64  usage error
                """),
        ])
}
