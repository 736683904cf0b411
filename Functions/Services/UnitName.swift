import ResolveKitCore

/// Checks a systemd unit name before it goes anywhere near `systemctl`'s argument vector.
enum UnitName {
    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@._:-".utf8)

    /// `name` if it is made only of `[A-Za-z0-9@._:-]`, is at most 255 bytes, and does not start with `-` or `.`
    /// (so it can never be read as an option). A name without a type suffix means `.service`, as in `systemctl`.
    /// - Throws: ``ResolveKitFunctionError/invalidArguments(_:)`` saying what is wrong.
    static func validated(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 255, name.utf8.allSatisfy(allowed.contains) else {
            throw ResolveKitFunctionError.invalidArguments(
                "\"\(name)\" is not a unit name; use 1 to 255 letters, digits and @ . _ : - only, e.g. \"cron.service\"."
            )
        }
        guard name.first != "-", name.first != "." else {
            throw ResolveKitFunctionError.invalidArguments(
                "\"\(name)\" starts with \"\(name.prefix(1))\", which could be read as an option; give a unit name such "
                    + "as \"cron.service\".")
        }
        return name
    }
}
