import ResolveKitHTTP
import Testing

/// libcurl lumps causes together under one code; the failure report tells them apart.
struct CurlFailureTests {
    @Test(arguments: [
        (
            CurlFailure(
                code: 60, detail: "SSL certificate problem: unable to get local issuer certificate", verifyResult: 20),
            HTTPError.Code.untrustedCertificate
        ),
        (
            CurlFailure(code: 60, detail: "SSL certificate problem: self-signed certificate", verifyResult: 18),
            .untrustedCertificate
        ),
        (
            CurlFailure(code: 60, detail: "SSL certificate problem: certificate has expired", verifyResult: 10),
            .certificateExpired
        ),
        (
            CurlFailure(code: 60, detail: "SSL certificate problem: certificate is not yet valid", verifyResult: 9),
            .certificateNotYetValid
        ),
        (
            CurlFailure(code: 60, detail: "SSL: no alternative certificate subject name matches target host name 'x'"),
            .hostnameMismatch
        ),
        (CurlFailure(code: 90, detail: "SSL: public key does not match pinned public key"), .pinMismatch),
        (
            CurlFailure(
                code: 56, detail: "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required"),
            .clientCertificateRequired
        ),
        (
            CurlFailure(code: 35, detail: "error:0A000418:SSL routines::tlsv1 alert unknown ca"),
            .clientCertificateRejected
        ),
        (
            CurlFailure(code: 56, detail: "error:0A000412:SSL routines::sslv3 alert bad certificate"),
            .clientCertificateRejected
        ),
        (CurlFailure(code: 35, detail: "error:0A000410:SSL routines::sslv3 alert handshake failure"), .tlsFailed),
        (
            CurlFailure(code: 35, detail: "OpenSSL/3.0.22: error:0A00042E:SSL routines::tlsv1 alert protocol version"),
            .tlsVersionMismatch
        ),
        (CurlFailure(code: 35, detail: "error:0A000102:SSL routines::unsupported protocol"), .tlsVersionMismatch),
        (CurlFailure(code: 56, detail: "Recv failure: Connection reset by peer"), .connectionLost),
        (CurlFailure(code: 58, detail: "unable to set private key file"), .clientIdentityUnusable),
        (CurlFailure(code: 77, detail: "error setting certificate file: /x"), .trustStoreUnusable),
        (
            CurlFailure(code: 56, detail: "CONNECT tunnel failed, response 407", proxyStatus: 407),
            .proxyAuthenticationRequired
        ),
        (CurlFailure(code: 56, detail: "CONNECT tunnel failed, response 403", proxyStatus: 403), .proxyRefused),
        (
            CurlFailure(code: 7, detail: "Failed to connect to 127.0.0.1 port 9", usesConfiguredProxy: true),
            .proxyRefused
        ),
        (CurlFailure(code: 7, detail: "Failed to connect to 127.0.0.1 port 9"), .connectFailed),
        (CurlFailure(code: 97, detail: "SOCKS5 authentication failed", proxyError: 33), .proxyAuthenticationRequired),
        (CurlFailure(code: 28, detail: "Operation too slow.", hasLowSpeedLimit: true), .tooSlow),
        (CurlFailure(code: 28, detail: "Operation timed out after 1000 milliseconds"), .timedOut),
    ])
    func eachCauseGetsItsOwnCode(failure: CurlFailure, code: HTTPError.Code) {
        let error = failure.error
        #expect(error.code == code)
        #expect(error.curlCode == failure.code)
        #expect(!error.message.isEmpty)
    }

    @Test func theVerifyResultAndTheProxysAnswerAreKeptOnTheError() {
        let error = CurlFailure(code: 60, detail: "x", verifyResult: 10, proxyStatus: 200).error
        #expect(error.tlsVerifyResult == 10)
        #expect(error.proxyStatus == 200)
    }

    @Test func nginxsPagesForARefusedClientCertificateAreNamed() {
        let missing = Array("<html>\r\n<head><title>400 No required SSL certificate was sent</title></head>".utf8)
        let refused = Array("<html>\r\n<head><title>400 The SSL certificate error</title></head>".utf8)
        #expect(HTTPError.networkRefusal(status: 400, body: missing)?.code == .clientCertificateRequired)
        #expect(HTTPError.networkRefusal(status: 400, body: refused)?.code == .clientCertificateRejected)
        #expect(HTTPError.networkRefusal(status: 407, body: [])?.code == .proxyAuthenticationRequired)
        #expect(HTTPError.networkRefusal(status: 400, body: Array("{\"detail\":\"bad\"}".utf8)) == nil)
        #expect(HTTPError.networkRefusal(status: 500, body: missing) == nil)
    }
}
