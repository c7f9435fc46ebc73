import Crypto
import DietStore
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// How sign-in guards `wdiet serve` when it answers beyond loopback.
///
/// Wrong attempts are counted per client address (the peer's, or the one the trusted proxy
/// forwarded): one address that keeps guessing locks only itself, never the household's other
/// devices. Across all addresses, a run of wrong attempts slows every check (one at a time,
/// `slowInterval` apart) but never refuses one: a guesser with many addresses gains little,
/// and cannot lock anybody out.
public struct SignInPolicy: Sendable {
    /// bcrypt's cost: 12 takes about a quarter of a second here; tests lower it.
    public var cost: UInt8 = 12
    /// Wrong passphrases (or setup codes) in a row from one address that lock that address,
    /// and for how long.
    public var failuresToLock = 5
    public var lockDuration: TimeInterval = 15 * 60
    /// Wrong attempts in a row from any addresses (since the last right one) that slow every
    /// check for `lockDuration`, kept across a restart: twice what one address may try, so it
    /// takes more than one guesser.
    public var failuresToSlow = 10
    /// While slowed, checks run one at a time at least this far apart.
    public var slowInterval: Duration = .seconds(1)
    /// A browser unused this long signs in again.
    public var idleTimeout: TimeInterval = 14 * 24 * 3600
    /// Attempts one address may make per minute, locked or not (a script's flood).
    public var attemptsPerMinute = 10
    /// Addresses whose attempts are remembered at most; beyond it the least recently seen are
    /// forgotten, so a flood of addresses cannot grow memory without bound.
    public var addressesRemembered = 10_000
    public static let passphraseLength = 8...256

    public init() {}
}

/// The sign-in state of a running server: the one-time setup code (memory only: it dies with
/// the process), the attempts and locks per address (memory only too), the slowdown across
/// addresses (in the store), and the slow hashing off the event loops.
final class SignInGate: Sendable {
    let policy: SignInPolicy
    private let store: AppDatabase
    private let addresses: Addresses
    private let pacer = Pacer()
    /// The code printed in the terminal, until a passphrase is set with it.
    private let code: Code

    init(store: AppDatabase, policy: SignInPolicy, offerSetupCode: Bool) {
        self.store = store
        self.policy = policy
        addresses = Addresses(policy: policy)
        code = Code(offerSetupCode ? Self.newSetupCode() : nil)
    }

    /// The setup code while it is still unused.
    var setupCode: String? { code.value }

    /// Eight digits in two groups (easy to type on a phone's number pad): 10⁸ codes against
    /// five tries per address and lock, and about one a second across addresses once slowed.
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

    /// What an address may do now, counting this as one of its attempts of the minute.
    enum Admission: Equatable {
        case allowed
        /// This address guessed wrong too often: it waits until then (other addresses do not).
        case locked(until: Date)
        /// This address tries more often than `attemptsPerMinute`.
        case tooFast
    }

    /// Whether an attempt from `address` is checked at all. While wrong attempts from many
    /// addresses slow sign-in, an admitted attempt waits its turn here (never refused for it).
    func admit(_ address: String, now: Date) async throws -> Admission {
        let admission = await addresses.admit(Self.key(address), now: now)
        guard admission == .allowed else { return admission }
        if let until = try store.webSignInState().lockedUntil, until > now {
            let turn = await pacer.turn(every: policy.slowInterval)
            try await Task.sleep(until: turn, clock: .continuous)
        }
        return .allowed
    }

    /// Until when `address` is locked, if it is (for the form as it opens).
    func lockedUntil(_ address: String, now: Date) async -> Date? {
        await addresses.lockedUntil(Self.key(address), now: now)
    }

    /// What a wrong passphrase or setup code from `address` did.
    enum Failure: Equatable {
        /// This many more wrong attempts lock the address.
        case attemptsLeft(Int)
        /// This one locked the address until then.
        case locked(until: Date)
    }

    /// Counts a wrong attempt: against `address` (its lock) and against all addresses (the
    /// slowdown, kept in the store). Returns the slowdown's end too when this attempt started it.
    func failed(_ address: String, now: Date) async throws -> (Failure, slowedUntil: Date?) {
        let failure = await addresses.failed(Self.key(address), now: now)
        let slowed = try store.recordWebSignInFailure(limit: policy.failuresToSlow, lockFor: policy.lockDuration)
        return (failure, slowed)
    }

    /// A right passphrase or code from `address`: its wrong attempts are forgotten.
    func succeeded(_ address: String) async {
        await addresses.succeeded(Self.key(address))
    }

    /// How many addresses are remembered now (at most `addressesRemembered`).
    var rememberedAddresses: Int {
        get async { await addresses.count }
    }

    /// The address as attempts are counted: an IPv4 address the same whether a dual-stack
    /// socket reports it IPv4-mapped or not, lowercased, and never longer than an address.
    static func key(_ address: String) -> String {
        var key = address.lowercased()
        if key.hasPrefix("::ffff:"), key.contains(".") { key.removeFirst("::ffff:".count) }
        return String(key.prefix(64))
    }

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

    /// Per address: its attempts of the last minute (at most `attemptsPerMinute` instants),
    /// its wrong attempts in a row and its lock. At most `addressesRemembered` addresses: when
    /// a new one would exceed that, the tenth seen least recently is forgotten in one go (so the
    /// cost of forgetting spreads over many new addresses). Forgetting a locked address ends
    /// its lock early; the slowdown across addresses is what bounds a guesser with many.
    private actor Addresses {
        struct Entry {
            var attempts: [ContinuousClock.Instant] = []
            var failures = 0
            var lockedUntil: Date?
            var seen: UInt64 = 0
        }

        let policy: SignInPolicy
        private var entries: [String: Entry] = [:]
        private var tick: UInt64 = 0

        init(policy: SignInPolicy) { self.policy = policy }

        var count: Int { entries.count }

        func admit(_ address: String, now: Date) -> Admission {
            var entry = take(address)
            defer { entries[address] = entry }
            if let until = entry.lockedUntil {
                if until > now { return .locked(until: until) }
                entry.lockedUntil = nil
            }
            let instant = ContinuousClock.now
            entry.attempts.removeAll { instant - $0 >= .seconds(60) }
            guard entry.attempts.count < policy.attemptsPerMinute else { return .tooFast }
            entry.attempts.append(instant)
            return .allowed
        }

        func lockedUntil(_ address: String, now: Date) -> Date? {
            entries[address]?.lockedUntil.flatMap { $0 > now ? $0 : nil }
        }

        func failed(_ address: String, now: Date) -> Failure {
            var entry = take(address)
            defer { entries[address] = entry }
            entry.failures += 1
            guard entry.failures >= policy.failuresToLock else { return .attemptsLeft(policy.failuresToLock - entry.failures) }
            entry.failures = 0
            let until = now.addingTimeInterval(policy.lockDuration)
            entry.lockedUntil = until
            return .locked(until: until)
        }

        func succeeded(_ address: String) {
            entries[address]?.failures = 0
            entries[address]?.lockedUntil = nil
        }

        /// The entry of `address` (a new one if unknown, making room for it), marked as seen now.
        private func take(_ address: String) -> Entry {
            tick += 1
            var entry: Entry
            if let known = entries[address] {
                entry = known
            } else {
                if entries.count >= max(1, policy.addressesRemembered) { forgetOldest() }
                entry = Entry()
            }
            entry.seen = tick
            return entry
        }

        private func forgetOldest() {
            let excess = entries.count - max(1, policy.addressesRemembered) + 1
            let batch = max(excess, policy.addressesRemembered / 10, 1)
            for (address, _) in entries.sorted(by: { $0.value.seen < $1.value.seen }).prefix(batch) {
                entries[address] = nil
            }
        }
    }

    /// While sign-in is slowed: the turns of checks, one every `interval`, first come first served.
    private actor Pacer {
        private var next = ContinuousClock.now

        func turn(every interval: Duration) -> ContinuousClock.Instant {
            let turn = max(ContinuousClock.now, next)
            next = turn + interval
            return turn
        }
    }
}
