import Foundation

extension ResolveKitConfiguration {
    /// Checks what a start needs before anything connects, and fixes the base URL the session uses.
    ///
    /// A base URL comes from ``configuredBaseURL``, else `RESOLVEKIT_BASE_URL`; there is no default, so a program
    /// that set neither fails here at once instead of trying some other host for the connect budget.
    /// - Parameter environment: where `RESOLVEKIT_BASE_URL` is read; the process's by default.
    /// - Returns: the configuration with ``configuredBaseURL`` set to the URL checked.
    /// - Throws: ``ResolveKitError`` with ``ResolveKitError/Code/missingBaseURL`` naming `RESOLVEKIT_BASE_URL` and
    ///   `baseURL` when neither is set, or ``ResolveKitError/Code/invalidConfiguration`` naming the one that is not an
    ///   `http://` or `https://` URL with a host.
    package func checkedForStart(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ResolveKitError) -> ResolveKitConfiguration {
        let variable = ResolveKitDefaults.baseURLVariable
        let source: String
        let url: URL
        if let configuredBaseURL {
            (source, url) = ("The configuration's baseURL", configuredBaseURL)
        } else if let fromEnvironment = ResolveKitDefaults.environmentBaseURL(environment) {
            (source, url) = (variable, fromEnvironment)
        } else {
            throw ResolveKitError(
                .missingBaseURL,
                "No backend base URL: set \(variable) (e.g. \(variable)=https://agent.example.com) or pass baseURL: "
                    + "to ResolveKitConfiguration")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else {
            throw ResolveKitError(
                .invalidConfiguration,
                "\(source) '\(url.absoluteString)' is not an http:// or https:// URL with a host, such as "
                    + "https://agent.example.com")
        }
        var checked = self
        checked.configuredBaseURL = url
        return checked
    }
}
