import DietStore
import Foundation
import SyncProtocol

/// What one sync did.
public struct SyncReport: Hashable, Sendable {
    public var pushed = 0
    public var refused = 0
    public var pulled = 0
    /// Pulled changes this device could not store (see `SyncStatus.setAside`).
    public var setAside = 0
    /// Why the server held uploads back (the account's storage quota or push rate); the
    /// changes stay queued for a later sync.
    public var uploadsHeld: String?
}

/// Exponential backoff with full jitter: attempt n waits a random time up to
/// `base · 2ⁿ`, capped.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    public var base: TimeInterval
    public var cap: TimeInterval

    public init(attempts: Int = 3, base: TimeInterval = 0.5, cap: TimeInterval = 30) {
        self.attempts = attempts
        self.base = base
        self.cap = cap
    }

    /// The longest wait before retry `attempt` (0-based), before jitter.
    public func ceiling(after attempt: Int) -> TimeInterval {
        min(cap, base * pow(2, Double(attempt)))
    }

    public func delay(after attempt: Int) -> TimeInterval {
        TimeInterval.random(in: 0...ceiling(after: attempt))
    }

    /// Automatic sync after a failure waits this long before trying again.
    public func pause(afterFailures failures: Int) -> TimeInterval {
        min(15 * 60, 5 * pow(2, Double(max(0, failures - 1))))
    }
}

/// Pushes the outbox and pulls what is new, merging each page in one transaction. Safe to
/// interrupt anywhere: the outbox keeps a change until the server acknowledged it, the
/// cursor moves only with the page it belongs to, and the server ignores replays.
public struct Synchronizer: Sendable {
    public let store: AppDatabase
    public let file: AccountFile
    public var retry = RetryPolicy()
    public var batchSize = SyncPaths.maxBatch
    /// The most bytes of changes one push carries: the server takes bodies up to 2 MiB, and a
    /// calendar row alone can be 1 MB. A single change over the budget goes alone.
    public var batchBytes = 1 << 20
    /// Seconds a request may take; the quiet sync after a write uses a short one.
    public var timeout: TimeInterval = 10
    let now: @Sendable () -> Date

    public init(store: AppDatabase, file: AccountFile, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.file = file
        self.now = now
    }

    /// Signs up or in and binds the store to the account; saves the account file.
    public func signIn(server: URL, credentials: PasswordCredentials, newAccount: Bool) async throws -> Account {
        let api = ServerAPI(baseURL: server)
        let tokens = newAccount ? try await api.signup(credentials) : try await api.login(credentials)
        do {
            try store.bindAccount(tokens.userID)
        } catch {
            try? await api.logout(accessToken: tokens.accessToken)
            throw error
        }
        let account = Account(server: server, email: credentials.email.lowercased(), tokens: tokens, now: now())
        try file.save(account)
        return account
    }

    /// Ends this device's session on the server (if reachable) and forgets the tokens. The
    /// local data stays.
    public func signOut() async throws {
        guard let account = try file.load() else { throw SyncError.notSignedIn }
        try? await ServerAPI(baseURL: account.server, timeout: 5).logout(accessToken: account.accessToken)
        try file.delete()
    }

    /// One full sync with retries (backoff and jitter) for transient failures.
    public func syncWithRetry() async throws -> SyncReport {
        var attempt = 0
        while true {
            do {
                return try await sync()
            } catch let error as SyncError where error.isTransient && attempt + 1 < retry.attempts {
                try await Task.sleep(nanoseconds: UInt64(retry.delay(after: attempt) * 1_000_000_000))
                attempt += 1
            }
        }
    }

    /// The quiet sync after a write: at most one attempt, skipped while an earlier failure's
    /// pause runs; failures only lengthen the pause (nothing is shown for being offline).
    public func syncIfDue() async -> SyncReport? {
        guard let account = try? file.load() else { return nil }
        if let next = account.nextAttemptAt, next > now() { return nil }
        do {
            let report = try await sync()
            return report
        } catch {
            try? await updateSavedAccount { saved in
                saved.failures += 1
                saved.nextAttemptAt = now().addingTimeInterval(retry.pause(afterFailures: saved.failures))
            }
            return nil
        }
    }

    /// Runs an account call with a fresh access token (refreshed when needed).
    public func withAccessToken<T: Sendable>(_ call: (ServerAPI, String) async throws -> T) async throws -> T {
        guard var account = try file.load() else { throw SyncError.notSignedIn }
        let api = ServerAPI(baseURL: account.server, timeout: timeout)
        return try await authorized(&account, api) { token in try await call(api, token) }
    }

    /// Deletes the account on the server (every device is signed out there) and forgets it
    /// here. The caller purges the local data afterwards.
    public func deleteAccount() async throws {
        try await withAccessToken { api, token in try await api.deleteAccount(accessToken: token) }
        try file.delete()
    }

    /// Push everything pending, then pull everything new.
    public func sync() async throws -> SyncReport {
        guard var account = try file.load() else { throw SyncError.notSignedIn }
        let api = ServerAPI(baseURL: account.server, timeout: timeout)
        var report = SyncReport()
        let device = try store.syncStatus().deviceID

        // Each round removes or marks every change it pushed, so this ends; the bound guards
        // against a writer that keeps the outbox full while we sync.
        for _ in 0..<1000 {
            let pending = Self.budgeted(try store.pendingChanges(limit: batchSize), bytes: batchBytes)
            if pending.isEmpty { break }
            let response: PushResponse
            do {
                response = try await authorized(&account, api) { token in
                    try await api.push(PushRequest(deviceID: device, changes: pending), accessToken: token)
                }
            } catch let SyncError.server(status, _, message) where status == 413 || status == 429 {
                // Over the account's quota or push rate: the changes stay queued, and what the
                // other devices wrote still comes down.
                report.uploadsHeld = message
                break
            }
            guard response.results.count == pending.count else {
                throw SyncError.invalidResponse("push answered \(response.results.count) results for \(pending.count) changes")
            }
            try store.acknowledge(pushed: pending, results: response.results)
            report.pushed += response.results.filter { $0.status != .rejected }.count
            report.refused += response.results.filter { $0.status == .rejected }.count
        }

        var more = true
        while more {
            let cursor = try store.pullCursor()
            let page = try await authorized(&account, api) { token in
                try await api.pull(cursor: cursor, limit: batchSize, accessToken: token)
            }
            let outcome = try store.merge(page)
            report.pulled += outcome.applied
            report.setAside += outcome.setAside
            more = page.hasMore && page.nextCursor > cursor
        }
        try store.recordSuccessfulSync()
        // the file, not this copy: another process may have rotated the tokens meanwhile
        try await updateSavedAccount { saved in
            saved.failures = 0
            saved.nextAttemptAt = nil
        }
        return report
    }

    /// The oldest of `changes` whose JSON stays within `bytes` (at least one, so a change over
    /// the budget goes alone rather than never).
    static func budgeted(_ changes: [Change], bytes budget: Int) -> [Change] {
        let encoder = JSONEncoder()
        var total = 0
        var count = 0
        for change in changes {
            let size = ((try? encoder.encode(change))?.count ?? 0) + 1
            if count > 0, total + size > budget { break }
            total += size
            count += 1
        }
        return Array(changes.prefix(count))
    }

    /// Runs `call` with a fresh access token: refreshed ahead of expiry, and once more if the
    /// server says it expired. The rotated refresh token is saved before it is used.
    private func authorized<T: Sendable>(
        _ account: inout Account,
        _ api: ServerAPI,
        _ call: (String) async throws -> T
    ) async throws -> T {
        if account.accessExpiresAt < now().addingTimeInterval(60) {
            try await refresh(&account, api)
        }
        do {
            return try await call(account.accessToken)
        } catch SyncError.signedOut {
            try await refresh(&account, api)
            return try await call(account.accessToken)
        }
    }

    /// Changes the saved account under the account lock, so no process writes back tokens
    /// older than the ones another process saved.
    private func updateSavedAccount(_ change: (inout Account) -> Void) async throws {
        let lock = try await AccountLock.acquire(file.path + ".lock")
        defer { lock.release() }
        guard var saved = try file.load() else { return }
        change(&saved)
        try file.save(saved)
    }

    /// Rotates the tokens. Refresh tokens are single-use and a reused one signs the device out,
    /// so two processes (the CLI's quiet sync beside `wdiet serve`) must not refresh at once:
    /// the refresh runs under an exclusive lock of `<account file>.lock`, and whoever comes
    /// second takes the tokens the first one saved.
    private func refresh(_ account: inout Account, _ api: ServerAPI) async throws {
        let lock = try await AccountLock.acquire(file.path + ".lock")
        defer { lock.release() }
        if let saved = try file.load(), saved.refreshToken != account.refreshToken, saved.accessExpiresAt > now().addingTimeInterval(60) {
            account = saved
            return
        }
        do {
            let tokens = try await api.refresh(account.refreshToken)
            account.update(with: tokens, now: now())
            try file.save(account)
        } catch let SyncError.server(status, _, _) where status == 401 {
            throw SyncError.signedOut
        }
    }
}

/// An exclusive advisory lock (flock) on a file, across processes; waited for without blocking
/// a thread of the cooperative pool.
struct AccountLock {
    private let descriptor: Int32

    static func acquire(_ path: String, timeout: Duration = .seconds(30)) async throws -> AccountLock {
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else { throw SyncError.lock(path) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw SyncError.lock(path)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return AccountLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
