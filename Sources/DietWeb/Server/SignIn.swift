import Crypto
import DietStore
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// How sign-in guards `wdiet serve` when it answers beyond loopback.
public struct SignInPolicy: Sendable {
    /// bcrypt's cost: 12 takes about a quarter of a second here; tests lower it.
    public var cost: UInt8 = 12
    /// Wrong passphrases (or setup codes) in a row that lock sign-in, and for how long.
    public var failuresToLock = 5
    public var lockDuration: TimeInterval = 15 * 60
    /// A browser unused this long signs in again.
    public var idleTimeout: TimeInterval = 14 * 24 * 3600
    /// Attempts one address may make per minute, locked or not (a script's flood).
    public var attemptsPerMinute = 10
    public static let passphraseLength = 8...256

    public init() {}
}

/// The sign-in state of a running server: the one-time setup code (memory only: it dies with
/// the process), the attempts per address, and the slow hashing off the event loops.
final class SignInGate: Sendable {
    let policy: SignInPolicy
    private let store: AppDatabase
    private let state: Attempts
    /// The code printed in the terminal, until a passphrase is set with it.
    private let code: Code

    init(store: AppDatabase, policy: SignInPolicy, offerSetupCode: Bool) {
        self.store = store
        self.policy = policy
        state = Attempts(perMinute: policy.attemptsPerMinute)
        code = Code(offerSetupCode ? Self.newSetupCode() : nil)
    }

    /// The setup code while it is still unused.
    var setupCode: String? { code.value }

    /// Eight digits in two groups (easy to type on a phone's number pad): 10⁸ codes against
    /// five tries per lock.
    static func newSetupCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<8).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        return digits.prefix(4) + "-" + digits.suffix(4)
    }

    /// Whether `typed` is the setup code (spaces and dashes ignored), in constant time.
    func setupCodeMatches(_ typed: String) -> Bool {
        code.value.map { setupCodeMatches(typed, $0) } ?? false
    }

    private func setupCodeMatches(_ typed: String, _ current: String) -> Bool {
        let clean = { (text: String) in String(text.filter(\.isASCII).filter(\.isNumber)) }
        return SessionMiddleware.constantTimeEqual(clean(typed), clean(current))
    }

    /// Spends the setup code if `typed` is it: true for exactly one of two requests racing
    /// with the right code.
    func consumeSetupCode(_ typed: String) -> Bool {
        code.take { current in setupCodeMatches(typed, current) }
    }

    /// Whether this address may try again now (a sliding minute).
    func allowAttempt(from address: String) async -> Bool { await state.allow(address) }

    /// The stored form of a passphrase: bcrypt over its SHA-256 (bcrypt reads only 72 bytes,
    /// and a passphrase may be longer), computed on NIO's thread pool. The passphrase is taken
    /// in Unicode's composed form: "Käse" typed on one keyboard as one letter and on another
    /// as a plus two dots is the same passphrase.
    func hash(_ passphrase: String) async throws -> String {
        let cost = policy.cost
        let digest = Self.digest(passphrase)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(digest, cost: cost) }
    }

    func verify(_ passphrase: String, hash: String) async throws -> Bool {
        let digest = Self.digest(passphrase)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(digest, hash: hash) }
    }

    private static func digest(_ passphrase: String) -> String {
        Data(SHA256.hash(data: Data(passphrase.precomposedStringWithCanonicalMapping.utf8))).base64EncodedString()
    }

    /// A new session token for a cookie, and the hash the store keeps of it.
    static func newSessionToken() -> (token: String, hash: String) {
        let token = SessionMiddleware.newToken()
        return (token, tokenHash(token))
    }

    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The setup code, shared between requests.
    private final class Code: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        init(_ value: String?) { stored = value }
        var value: String? { lock.withLock { stored } }

        /// Clears the code when `matches` accepts it, in one step.
        func take(_ matches: (String) -> Bool) -> Bool {
            lock.withLock {
                guard let current = stored, matches(current) else { return false }
                stored = nil
                return true
            }
        }
    }

    /// Attempts per address over the last minute, for at most 10,000 addresses (the oldest
    /// forgotten first), so a flood of addresses cannot grow memory without bound.
    private actor Attempts {
        let perMinute: Int
        private var times: [String: [ContinuousClock.Instant]] = [:]

        init(perMinute: Int) { self.perMinute = perMinute }

        func allow(_ address: String) -> Bool {
            let now = ContinuousClock.now
            let recent = (times[address] ?? []).filter { now - $0 < .seconds(60) }
            if times.count > 10_000 { times = times.filter { !$0.value.isEmpty && now - ($0.value.last ?? now) < .seconds(60) } }
            guard recent.count < perMinute else {
                times[address] = recent
                return false
            }
            times[address] = recent + [now]
            return true
        }
    }
}
