import Foundation
import HummingbirdBcrypt
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `--web.config.file`: the exporter's own port over TLS with a certificate made at test time by
/// `openssl`, and basic authentication against bcrypt hashes, read back with `curl`.
@Suite("serve: TLS and basic authentication (--web.config.file)", .serialized)
struct ServeWebConfigTests {
    /// A self-signed certificate for 127.0.0.1 and its key, in `directory`.
    static func makeCertificate(in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", directory.appendingPathComponent("key.pem").path, "-out", directory.appendingPathComponent("cert.pem").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl could not make a certificate")
    }

    /// The HTTP status curl got for `url` with `arguments` (0 when no HTTP answer came).
    static func status(_ url: String, _ arguments: [String] = []) throws -> Int {
        Int(try ServeOperationsTests.curl(arguments + ["-o", "/dev/null", "-w", "%{http_code}", url])) ?? 0
    }

    @Test("with tls_server_config and basic_auth_users: HTTPS with the certificate, 401 without or with wrong credentials, 200 with the right ones")
    func tlsAndBasicAuthentication() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-web")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeCertificate(in: directory)
        // Relative names: resolved against the file's folder.
        let web = directory.appendingPathComponent("web.yml")
        try """
            tls_server_config:
              cert_file: cert.pem
              key_file: key.pem
            basic_auth_users:
              prometheus: '\(Bcrypt.hash("s3cret", cost: 4))'
            """.write(to: web, atomically: true, encoding: .utf8)
        let serve = try ServeProcess(["--web.config.file", web.path])
        #expect(serve.stderr.contains("; HTTPS; basic authentication for 1 user(s)."), "\(serve.stderr)")
        let url = "https://127.0.0.1:\(serve.port)/metrics"
        let ca = ["--cacert", directory.appendingPathComponent("cert.pem").path]
        #expect(try Self.status(url, ca + ["-u", "prometheus:s3cret"]) == 200)
        // Twice: the second is answered from the remembered verification, and must agree.
        #expect(try Self.status(url, ca + ["-u", "prometheus:s3cret"]) == 200)
        #expect(try Self.status(url, ca) == 401)
        #expect(try Self.status(url, ca + ["-u", "prometheus:wrong"]) == 401)
        #expect(try Self.status(url, ca + ["-u", "someone:s3cret"]) == 401)
        let challenge = try ServeOperationsTests.curl(ca + ["-D", "-", "-o", "/dev/null", url])
        #expect(challenge.lowercased().contains("www-authenticate: basic realm=\"bufprobe\""), "\(challenge)")
        let body = try ServeOperationsTests.curl(ca + ["-u", "prometheus:s3cret", url])
        #expect(body.contains("bufprobe_exporter_max_parallel 8"))
        // The certificate is verified (curl's default), and plain HTTP gets no answer from a TLS port.
        #expect(try Self.status(url) == 0, "curl must refuse the self-signed certificate without --cacert")
        #expect(try Self.status("http://127.0.0.1:\(serve.port)/metrics", ["-u", "prometheus:s3cret"]) != 200)
        #expect(serve.logged("GET /metrics 401"))
    }

    @Test(arguments: [
        ("basic_auth_users:\n  prometheus: s3cret\n", "the password of prometheus must be a bcrypt hash"),
        ("tls_server_config:\n  cert_file: missing.pem\n  key_file: missing.pem\n", "tls_server_config.cert_file missing.pem is not a readable PEM certificate."),
        ("tls_server_config:\n  cert_file: a.pem\n", "tls_server_config needs both cert_file and key_file."),
        ("http_server_config:\n  http2: false\n", "unknown key 'http_server_config'"),
    ])
    func badWebConfigurationIsRefused(text: String, sentence: String) throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-web")
        defer { try? FileManager.default.removeItem(at: directory) }
        let web = directory.appendingPathComponent("web.yml")
        try text.write(to: web, atomically: true, encoding: .utf8)
        let result = try BufprobeProcess.run(["serve", "--listen", "127.0.0.1:0", "--web.config.file", web.path], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("SIGHUP and POST /-/reload read basic_auth_users again: a replaced password is refused, the new one admitted, a bad file keeps the users")
    func basicAuthUsersReload() throws {
        let directory = try CheckServers.temporaryDirectory("bufprobe-web-reload")
        defer { try? FileManager.default.removeItem(at: directory) }
        let web = directory.appendingPathComponent("web.yml")
        func users(_ password: String) -> String { "basic_auth_users:\n  prometheus: '\(Bcrypt.hash(password, cost: 4))'\n" }
        try users("first").write(to: web, atomically: true, encoding: .utf8)
        let serve = try ServeProcess(["--web.config.file", web.path])
        let url = "http://127.0.0.1:\(serve.port)/metrics"
        #expect(try Self.status(url, ["-u", "prometheus:first"]) == 200)

        // SIGHUP: the old password (remembered after it verified) is refused, the new one admitted.
        try users("second").write(to: web, atomically: true, encoding: .utf8)
        serve.send(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !serve.stderr.contains("SIGHUP: reloaded") { usleep(20_000) }
        #expect(serve.stderr.contains("SIGHUP: reloaded \(web.path): 1 basic-auth user(s)"), "\(serve.stderr)")
        #expect(try Self.status(url, ["-u", "prometheus:first"]) == 401)
        #expect(try Self.status(url, ["-u", "prometheus:second"]) == 200)
        #expect(serve.exitStatus(within: 0.2) == nil, "SIGHUP must not stop the exporter")

        // POST /-/reload: the same; a file that does not load keeps the users in force and answers 500.
        try users("third").write(to: web, atomically: true, encoding: .utf8)
        let reload = "http://127.0.0.1:\(serve.port)/-/reload"
        #expect(try Self.status(reload, ["-X", "POST", "-u", "prometheus:second"]) == 200)
        #expect(try Self.status(url, ["-u", "prometheus:second"]) == 401)
        #expect(try Self.status(url, ["-u", "prometheus:third"]) == 200)
        try "basic_auth_users: [not, a, mapping]\n".write(to: web, atomically: true, encoding: .utf8)
        #expect(try Self.status(reload, ["-X", "POST", "-u", "prometheus:third"]) == 500)
        #expect(try Self.status(url, ["-u", "prometheus:third"]) == 200)
    }
}
