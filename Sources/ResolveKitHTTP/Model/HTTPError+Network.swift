extension HTTPError {
    /// The typed cause of a non-2xx answer that the network in front of the server wrote, not the server: a proxy's
    /// `407 Proxy Authentication Required`, or the `400` page nginx answers (instead of a TLS alert) when mutual TLS
    /// fails: "No required SSL certificate was sent" and "The SSL certificate error". `nil` for any other answer,
    /// which is the server's.
    public static func networkRefusal(status: Int, body: [UInt8]) -> HTTPError? {
        switch status {
        case 407:
            return HTTPError(
                code: .proxyAuthenticationRequired,
                message:
                    "The proxy wants credentials (407) and none or wrong ones were sent; set the proxy's credentials",
                status: status)
        case 400 where body.count < 4096:
            let text = String(decoding: body, as: UTF8.self)
            if text.contains("<title>400 No required SSL certificate was sent</title>") {
                return HTTPError(
                    code: .clientCertificateRequired,
                    message:
                        "The TLS proxy in front of the server requires a client certificate (mutual TLS) and none "
                        + "was sent; configure the client identity",
                    status: status)
            }
            if text.contains("<title>400 The SSL certificate error</title>") {
                return HTTPError(
                    code: .clientCertificateRejected,
                    message:
                        "The TLS proxy in front of the server refused the client certificate; check that a CA it "
                        + "trusts issued it and that it has not expired",
                    status: status)
            }
            return nil
        default:
            return nil
        }
    }
}
