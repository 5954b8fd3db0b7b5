import Foundation
import HummingbirdBcrypt
import Synchronization

/// HTTP basic authentication against `basic_auth_users`' bcrypt hashes. bcrypt is slow on purpose
/// (tens of milliseconds at cost 10) and Prometheus sends the same credentials with every scrape, so the
/// last password that verified for each user is remembered (exporter-toolkit caches too): a scrape costs
/// one bcrypt per user and password change, not one per request.
///
/// With the `--web.config.file` it came from, `reload()` reads the file again (SIGHUP, `POST /-/reload`)
/// and replaces the users; the TLS certificate is not reloaded (see `reload()`).
package final class BasicAuth: Sendable {
    private let users: Mutex<[String: String]>
    private let verified = Mutex<[String: String]>([:])
    /// The `--web.config.file` the users were read from, when there is one.
    package let path: String?

    /// Authentication for `users` (name to bcrypt hash), read from `path` when given; none admits every request.
    package init(users: [String: String], path: String? = nil) {
        self.users = Mutex(users)
        self.path = path
    }

    /// Whether authentication is required.
    package var isEnabled: Bool { !users.withLock { $0.isEmpty } }

    /// Reads `path` again and takes its `basic_auth_users` (none: authentication off), forgetting every
    /// password remembered; the number of users. A bad file changes nothing. The TLS certificate is read
    /// only at start: HummingbirdTLS's `TLSChannel` builds its `NIOSSLContext` once, when the server is
    /// built, and has no way to swap it while serving (a new certificate needs a restart).
    package func reload() -> Result<Int, ExporterConfigError> {
        guard let path else { return .success(users.withLock { $0.count }) }
        let web: WebConfig
        do { web = try WebConfig.load(path: path) } catch { return .failure(error) }
        users.withLock { users in
            users = web.users
            verified.withLock { $0.removeAll() }
        }
        return .success(web.users.count)
    }

    /// Whether an `Authorization` header's value names a user and the password of its hash.
    package func admits(authorization: String?) -> Bool {
        guard isEnabled else { return true }
        guard let authorization, authorization.count <= 4096,
            authorization.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return false }
        let user = String(pair[..<colon])
        let password = String(pair[pair.index(after: colon)...])
        let (known, remembered) = users.withLock { users in (users[user], verified.withLock { $0[user] }) }
        guard let hash = known else { return false }
        if remembered == password { return true }
        guard Bcrypt.verify(password, hash: hash) else { return false }
        // Remembered only while the hash is still this user's (a reload may have replaced it meanwhile).
        users.withLock { current in
            if current[user] == hash { verified.withLock { $0[user] = password } }
        }
        return true
    }
}
