import Foundation
import Glibc

/// A real nginx (Debian's package) terminating TLS on a loopback port in front of an HTTP server, as a company's
/// reverse proxy does: its certificate and key, optionally a CA whose client certificates it requires (mutual TLS),
/// HTTP/2 and HTTP/1.1, and `proxy_buffering off` so server-sent events pass at once. It runs as a foreground child
/// with its own prefix, configuration, pid file and logs in a temporary folder.
package struct NginxTLSProxy: Sendable {
    /// The running nginx.
    package let process: LoopbackServerProcess

    /// `https://127.0.0.1:PORT` (the server certificates of ``TestCertificates`` name `127.0.0.1`).
    package var baseURL: String { "https://127.0.0.1:\(process.port)" }

    /// Starts nginx in front of `http://127.0.0.1:upstreamPort`.
    /// - Parameters:
    ///   - certificate: the server certificate (PEM).
    ///   - key: its key.
    ///   - clientCA: when set, nginx requires a client certificate signed by this CA (`ssl_verify_client on`).
    /// - Throws: ``ExternalProgram/Missing`` without nginx; ``FixtureError`` when it does not start.
    package static func start(
        upstreamPort: Int, certificate: String, key: String, clientCA: String? = nil
    ) async throws -> NginxTLSProxy {
        let nginx = try ExternalProgram.nginx.require()
        let process = try await LoopbackServerProcess.start(nginx, name: "nginx", logFile: "error.log") {
            port, directory in
            let configuration = Self.configuration(
                port: port, directory: directory, upstreamPort: upstreamPort, certificate: certificate, key: key,
                clientCA: clientCA)
            try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
            return ["-p", directory, "-c", directory + "/nginx.conf", "-e", directory + "/error.log"]
        }
        return NginxTLSProxy(process: process)
    }

    /// Stops nginx and removes its folder.
    package func stop() async {
        await process.stop()
    }

    static func configuration(
        port: Int, directory: String, upstreamPort: Int, certificate: String, key: String, clientCA: String?
    ) -> String {
        let mutualTLS = clientCA.map { "ssl_client_certificate \($0);\n        ssl_verify_client on;" } ?? ""
        let user = geteuid() == 0 ? "user root;" : ""
        return """
            \(user)
            daemon off;
            master_process on;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log info;
            events { worker_connections 512; }
            http {
                access_log \(directory)/access.log;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    server_name localhost;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(key);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    \(mutualTLS)
                    location / {
                        proxy_pass http://127.0.0.1:\(upstreamPort);
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_buffering off;
                        proxy_request_buffering off;
                        proxy_read_timeout 1h;
                    }
                }
            }

            """
    }
}
