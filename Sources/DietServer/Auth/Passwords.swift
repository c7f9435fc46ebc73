import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt off the event loops. Unknown accounts are checked against a fixed hash, so a
/// sign-in takes as long whether or not the email exists.
struct Passwords: Sendable {
    let cost: UInt8
    private let decoyHash: String

    init(cost: UInt8) {
        self.cost = cost
        decoyHash = Bcrypt.hash("decoy password for unknown accounts", cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`; a nil hash (unknown account, or one made with Sign in
    /// with Apple) is checked against the decoy and fails.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let matches = try await NIOThreadPool.singleton.runIfActive { [decoyHash] in
            Bcrypt.verify(password, hash: hash ?? decoyHash)
        }
        return matches && hash != nil
    }

    /// Rules for a new password: 10 to 200 characters (bcrypt reads 72 bytes; longer is
    /// allowed but no stronger).
    static func problem(with password: String) -> String? {
        if password.count < 10 { return "The password needs at least 10 characters." }
        if password.count > 200 { return "The password may have at most 200 characters." }
        return nil
    }
}
