import Foundation
import HummingbirdBcrypt
import Synchronization

/// HTTP basic authentication against `basic_auth_users`' bcrypt hashes. bcrypt is slow on purpose
/// (tens of milliseconds at cost 10) and Prometheus sends the same credentials with every scrape, so the
/// last password that verified for each user is remembered (exporter-toolkit caches too): a scrape costs
/// one bcrypt per user and password change, not one per request.
package final class BasicAuth: Sendable {
    private let users: [String: String]
    private let verified = Mutex<[String: String]>([:])

    /// Authentication for `users` (name to bcrypt hash); none admits every request.
    package init(users: [String: String]) { self.users = users }

    /// Whether authentication is required.
    package var isEnabled: Bool { !users.isEmpty }

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
        guard let hash = users[user] else { return false }
        if verified.withLock({ $0[user] }) == password { return true }
        guard Bcrypt.verify(password, hash: hash) else { return false }
        verified.withLock { $0[user] = password }
        return true
    }
}
