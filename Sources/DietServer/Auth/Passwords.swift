import CBcrypt
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
            Self.constantTimeVerify(password, hash: hash ?? decoyHash)
        }
        return matches && hash != nil
    }

    /// bcrypt again with the stored hash's salt and cost, then a comparison whose time does
    /// not depend on where the hashes differ (the library's own check uses memcmp).
    static func constantTimeVerify(_ password: String, hash stored: String) -> Bool {
        var computed = [CChar](repeating: 0, count: 128)
        guard c_hb_bcrypt_hashpass(password, stored, &computed, computed.count) == 0 else { return false }
        let left = Array(stored.utf8)
        let right = computed.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }

    /// Rules for a new password: 10 to 200 characters (bcrypt reads 72 bytes; longer is
    /// allowed but no stronger).
    static func problem(with password: String) -> String? {
        if password.count < 10 { return "The password needs at least 10 characters." }
        if password.count > 200 { return "The password may have at most 200 characters." }
        return nil
    }
}
