import Foundation
import SyncProtocol

/// The device's sign-in: server, account, tokens, and the retry schedule of automatic sync.
/// Kept beside the database in a file only its owner can read (0600), never in the database
/// (which is exported) and never printed.
public struct Account: Codable, Hashable, Sendable {
    public var server: URL
    public var email: String
    public var userID: UUID
    public var sessionID: UUID
    public var accessToken: String
    public var accessExpiresAt: Date
    public var refreshToken: String
    /// Failed automatic syncs in a row, and when the next one may run.
    public var failures: Int = 0
    public var nextAttemptAt: Date?

    public init(server: URL, email: String, tokens: TokenResponse, now: Date) {
        self.server = server
        self.email = email
        userID = tokens.userID
        sessionID = tokens.sessionID
        accessToken = tokens.accessToken
        accessExpiresAt = Self.expiry(now, tokens)
        refreshToken = tokens.refreshToken
    }

    /// Whole seconds, as the file stores them (ISO 8601).
    static func expiry(_ now: Date, _ tokens: TokenResponse) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(tokens.expiresIn)).rounded(.down))
    }

    mutating func update(with tokens: TokenResponse, now: Date) {
        accessToken = tokens.accessToken
        accessExpiresAt = Self.expiry(now, tokens)
        refreshToken = tokens.refreshToken
    }
}

/// Reads and writes the account file atomically with owner-only permissions.
public struct AccountFile: Sendable {
    public let path: String

    /// The account file of the database at `databasePath`.
    public init(databasePath: String) {
        path = databasePath + ".account.json"
    }

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> Account? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try JSONDecoder.api.decode(Account.self, from: data)
    }

    /// Writes a temporary file created 0600, then renames it over the old one: a crash
    /// leaves the old or the new file, never half of one, and never a readable one.
    public func save(_ account: Account) throws {
        try Self.writePrivately(try JSONEncoder.api.encode(account), to: path)
    }

    /// Writes `data` to a temporary file created 0600 and renames it over `path`.
    public static func writePrivately(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    public func delete() throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}
