package import Foundation
import HummingbirdBcrypt
package import HummingbirdTLS
import Yams

/// `serve --web.config.file`: TLS and basic authentication for the exporter's own port, in the format of
/// the Prometheus exporters' web configuration (exporter-toolkit):
///
/// ```yaml
/// tls_server_config:
///   cert_file: /etc/bufprobe/tls.crt
///   key_file: /etc/bufprobe/tls.key
/// basic_auth_users:
///   prometheus: $2y$10$...   # a bcrypt hash (htpasswd -nbB, or Python's bcrypt)
/// ```
/// Both parts are optional. Paths are relative to the file's folder. Other keys of exporter-toolkit's
/// format (`client_auth_type`, `min_version`, `http_server_config`...) are refused rather than ignored, so
/// a setting that looks in force always is.
package struct WebConfig: Sendable {
    /// The TLS configuration, `nil` for plain HTTP.
    package var tls: TLSConfiguration?
    /// User name to bcrypt hash; empty: no authentication.
    package var users: [String: String] = [:]

    /// Plain HTTP, no authentication.
    package init() {}

    /// Reads and parses the file at `path` (and the certificate and key it names).
    package static func load(path: String) throws(ExporterConfigError) -> WebConfig {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ExporterConfigError("cannot read \(path): \((error as NSError).localizedDescription)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do { return try parse(text, relativeTo: folder) } catch { throw ExporterConfigError("\(path): \(error.sentence)") }
    }

    /// Parses the YAML text; relative file names are resolved against `folder`.
    package static func parse(_ text: String, relativeTo folder: URL) throws(ExporterConfigError) -> WebConfig {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw ExporterConfigError("it is not YAML: \(error)") }
        var config = WebConfig()
        guard let root else { return config }
        guard let top = root.mapping else { throw ExporterConfigError("the file must be a mapping (tls_server_config, basic_auth_users).") }
        for (key, value) in top {
            switch key.string {
            case "tls_server_config":
                guard let tls = value.mapping else { throw ExporterConfigError("tls_server_config must be a mapping (cert_file, key_file).") }
                var cert: String?
                var key: String?
                for (name, file) in tls {
                    guard let path = file.scalar?.string else { throw ExporterConfigError("tls_server_config.\(name.string ?? "?") must be a file name.") }
                    switch name.string {
                    case "cert_file": cert = path
                    case "key_file": key = path
                    default: throw ExporterConfigError("tls_server_config takes cert_file and key_file only, not '\(name.string ?? "?")'.")
                    }
                }
                guard let cert, let key else { throw ExporterConfigError("tls_server_config needs both cert_file and key_file.") }
                config.tls = try tlsConfiguration(
                    cert: folder.appendingPathComponent(cert).standardizedFileURL.path, key: folder.appendingPathComponent(key).standardizedFileURL.path,
                    certGiven: cert, keyGiven: key)
            case "basic_auth_users":
                if value.null != nil { continue }
                guard let users = value.mapping else { throw ExporterConfigError("basic_auth_users must map user names to bcrypt hashes.") }
                for (user, hash) in users {
                    guard let name = user.string, !name.isEmpty, !name.contains(":"), let hash = hash.scalar?.string else {
                        throw ExporterConfigError("basic_auth_users must map user names (without ':') to bcrypt hashes.")
                    }
                    guard ["$2a$", "$2b$", "$2y$"].contains(where: hash.hasPrefix), hash.count == 60 else {
                        throw ExporterConfigError("the password of \(name) must be a bcrypt hash ($2y$..., 60 characters), not a plain password.")
                    }
                    config.users[name] = hash
                }
            default:
                throw ExporterConfigError("unknown key '\(key.string ?? "?")'; the file takes tls_server_config and basic_auth_users.")
            }
        }
        return config
    }

    private static func tlsConfiguration(cert: String, key: String, certGiven: String, keyGiven: String) throws(ExporterConfigError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(cert) } catch {
            throw ExporterConfigError("tls_server_config.cert_file \(certGiven) is not a readable PEM certificate.")
        }
        guard !chain.isEmpty else { throw ExporterConfigError("tls_server_config.cert_file \(certGiven) holds no certificate.") }
        let privateKey: NIOSSLPrivateKey
        do { privateKey = try NIOSSLPrivateKey(file: key, format: .pem) } catch {
            throw ExporterConfigError("tls_server_config.key_file \(keyGiven) is not a readable PEM private key.")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }
}
