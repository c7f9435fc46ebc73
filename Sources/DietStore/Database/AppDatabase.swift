import DietCore
import Foundation
import GRDB
import SyncProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one owner of the local store (docs/style.md, "One owner for the local store"): it migrates on open and offers one
/// method per intention, each a single write transaction that also appends its change to the
/// sync outbox, so a crash can lose neither a change nor its pending upload.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// Stamps every write; tests pass a fixed clock.
    let clock: any Clock

    /// Opens `writer`, applies pending migrations and makes sure the device has an id.
    /// - Parameter deviceID: the id to use if the database has none yet (tests fix it).
    public init(_ writer: any DatabaseWriter, clock: any Clock, deviceID: String? = nil) throws {
        self.writer = writer
        self.clock = clock
        try Migrations.migrator.migrate(writer)
        try writer.write { db in
            if try SyncState.value(.deviceID, in: db) == nil {
                try SyncState.set(.deviceID, deviceID ?? Self.newDeviceID(), in: db)
            }
        }
    }

    /// The database file at `path` (created with its folder if missing), in WAL mode. It holds
    /// health data, so it is readable by its owner only whatever the umask: a folder we create
    /// gets 0700, the file and its -wal and -shm files 0600 (an older, wider file is narrowed).
    public static func open(path: String, clock: any Clock = SystemClock()) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        try ownerOnly(path)
        // Another process (or a pool being closed) can hold the lock SQLite needs to switch to
        // WAL for a moment; the busy timeout does not cover that step, so retry briefly.
        var attempt = 0
        while true {
            do {
                return try AppDatabase(DatabasePool(path: path, configuration: configuration), clock: clock)
            } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && attempt < 40 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Creates the database file empty with mode 0600 if it is missing (SQLite gives its -wal
    /// and -shm files the database file's mode), and narrows existing files to 0600.
    private static func ownerOnly(_ path: String) throws {
        if !createOwnerOnlyFile(path), errno != EEXIST {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & 0o077 != 0 { chmod(file, 0o600) }
        }
    }

    /// A private in-memory database, for tests and previews.
    public static func inMemory(clock: any Clock, deviceID: String = "device0") throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration), clock: clock, deviceID: deviceID)
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // The bundled food database, read-only, on every connection as schema `foods`.
            guard let url = FoodCatalog.bundledURL else { throw StoreError.missingFoodDatabase }
            try db.execute(sql: "ATTACH DATABASE ? AS foods", arguments: [FoodCatalog.readOnlyURI(url)])
            // Its words, for typo tolerance: a per-connection view over the FTS5 index.
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.food_vocab USING fts5vocab(foods, food_search, row)")
        }
        return configuration
    }

    /// Read-only access for queries and observation.
    public var reader: any DatabaseReader { writer }

    /// The names of the migrations applied, in order.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Migrations.migrator.appliedMigrations(db) }
    }

    private static func newDeviceID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}

/// Creates `path` as an empty file with mode 0600; false (with `errno` set) if it exists or
/// cannot be made. Outside `AppDatabase`, whose `open(path:clock:)` hides the system's `open`.
private func createOwnerOnlyFile(_ path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
}
