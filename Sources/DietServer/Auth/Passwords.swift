import CBcrypt
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt off the event loops, at most so many hashes at once (`WorkGate`): sign-ins go
/// before sign-ups, and work that would wait too long is refused with 503. Unknown accounts
/// are checked against a fixed hash, so a sign-in takes as long whether or not the email exists.
struct Passwords: Sendable {
    let cost: UInt8
    private let decoyHash: String
    private let gate: WorkGate

    init(cost: UInt8, policy: BcryptPolicy = BcryptPolicy()) {
        self.cost = cost
        decoyHash = Bcrypt.hash("decoy password for unknown accounts", cost: cost)
        gate = WorkGate(slots: policy.concurrency, maxQueued: policy.maxQueued, maxWait: policy.maxWait)
    }

    /// A new hash (sign-up): ordinary work.
    func hash(_ password: String) async throws -> String {
        try await gated(.ordinary) { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash` (sign-in): urgent work. A nil hash (unknown account,
    /// or one made with Sign in with Apple) is checked against the decoy and fails.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let matches = try await gated(.urgent) { [decoyHash] in
            Self.constantTimeVerify(password, hash: hash ?? decoyHash)
        }
        return matches && hash != nil
    }

    private func gated<T: Sendable>(_ priority: WorkGate.Priority, _ work: @escaping @Sendable () -> T) async throws -> T {
        do {
            return try await gate.run(priority) { try await NIOThreadPool.singleton.runIfActive(work) }
        } catch is WorkGate.Busy {
            throw APIError.busy(retryAfter: 2)
        }
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
}
