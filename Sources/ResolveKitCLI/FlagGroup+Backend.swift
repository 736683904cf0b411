extension FlagGroup {
    /// The backend a tool talks to and its API key: `--base-url`, `--api-key-file`, and `--api-key`, which is
    /// refused because every user can read a command line in `ps`. Shared by `rk-chat` and `rk-service`.
    package static let backend = FlagGroup("BACKEND OPTIONS", [.baseURL, .apiKeyFile, .apiKeyRefused])
}

extension Flag {
    /// `--base-url URL`.
    package static let baseURL = Flag(
        "--base-url", value: "URL", kind: .url,
        help: "The backend's base URL, including any path prefix (default: $RESOLVEKIT_BASE_URL).")
    /// `--api-key-file PATH`.
    package static let apiKeyFile = Flag(
        "--api-key-file", value: "PATH", kind: .file(mustExist: true),
        help: "A file holding the API key on one line (default: $RESOLVEKIT_API_KEY).")
    /// `--api-key`, refused.
    package static let apiKeyRefused = Flag.refused(
        "--api-key",
        because: "--api-key would show the key to every user in `ps`; use --api-key-file PATH or RESOLVEKIT_API_KEY")
}
