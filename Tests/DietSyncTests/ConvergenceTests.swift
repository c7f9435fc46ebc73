import DietCore
import DietStore
import DietSync
import Foundation
import GRDB
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

/// A device's clock: the real time plus a skew that the test moves, backwards too.
final class SkewedClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var skew: TimeInterval

    init(skew: TimeInterval) {
        self.skew = skew
    }

    func now() -> Date {
        lock.withLock { Date().addingTimeInterval(skew) }
    }

    func jump(by seconds: TimeInterval) {
        lock.withLock { skew = max(-6 * 3600, min(6 * 3600, skew + seconds)) }
    }
}

/// One simulated device: its own store file, account file and clock.
struct Device {
    let name: String
    let store: AppDatabase
    let clock: SkewedClock
    var synchronizer: Synchronizer
    var online = true

    init(name: String, folder: URL, skew: TimeInterval) throws {
        self.name = name
        clock = SkewedClock(skew: skew)
        let path = folder.appendingPathComponent("\(name).sqlite").path
        store = try AppDatabase.open(path: path, clock: clock)
        synchronizer = Synchronizer(store: store, file: AccountFile(databasePath: path))
        synchronizer.batchSize = 7
    }

    func aliveMeals() throws -> [UUID] {
        try store.reader.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM meal_logs WHERE deleted = 0 ORDER BY id").compactMap(UUID.init(uuidString:))
        }
    }

    /// Every synced table's rows, as text, for comparing devices.
    func dump() throws -> [String: [String]] {
        try store.reader.read { db in
            var tables: [String: [String]] = [:]
            for table in ConvergenceTests.tables {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map { row in
                    row.columnNames.sorted().map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: "|")
                }
            }
            return tables
        }
    }
}

@Suite("Convergence of three devices")
struct ConvergenceTests {
    static let tables = ["profile", "cycle_states", "meal_logs", "weight_entries", "analytics_events", "custom_foods", "recipes"]

    struct Key: Hashable {
        let table: SyncTable
        let id: UUID
    }

    @Test(
        "600 random operations with offline periods, replays, old pages and skewed clocks converge to last-writer-wins",
        arguments: [UInt64(20_261_123), 7]
    )
    func converges(seed: UInt64) async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            var random = SeededGenerator(seed: seed)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-converge-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            var devices = [
                try Device(name: "laptop", folder: folder, skew: 0),
                try Device(name: "phone", folder: folder, skew: -2 * 3600),
                try Device(name: "tablet", folder: folder, skew: 40 * 60),
            ]
            var model: [Key: Change] = [:]
            func observe(_ device: Device) throws {
                for change in try device.store.pendingChanges(limit: 100_000) {
                    let key = Key(table: change.table, id: change.id)
                    if model[key].map({ change.hlc > $0.hlc }) ?? true { model[key] = change }
                }
            }

            for (index, device) in devices.enumerated() {
                _ = try device.store.completeOnboarding(index == 2 ? .bob : .alice, timeZone: Zones.berlin)
                try observe(device)
                let credentials = PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: device.name)
                _ = try await device.synchronizer.signIn(server: server, credentials: credentials, newAccount: index == 0)
            }

            let scenario = ConvergenceScenario(route: { _ in nil })
            for operation in 1...600 {
                let index = Int.random(in: 0..<devices.count, using: &random)
                try await scenario.step(operation, on: &devices[index], using: &random)
                try observe(devices[index])
            }

            // Everyone back online; sync until nothing moves.
            for round in 0..<3 {
                for device in devices {
                    let report = try await device.synchronizer.sync()
                    if round == 2 { #expect(report.pushed == 0 && report.pulled == 0, "\(device.name) still moving: \(report)") }
                }
            }

            // Every device holds the same rows…
            let reference = try devices[0].dump()
            for device in devices.dropFirst() {
                let dump = try device.dump()
                for table in Self.tables { #expect(dump[table] == reference[table], "\(device.name): \(table) differs") }
            }
            // …which are the last writes of the model…
            for device in devices { try await ConvergenceScenario.expectModel(model, on: device) }
            // …and the server holds exactly the model.
            let account = try #require(try devices[0].synchronizer.file.load())
            #expect(try await ConvergenceScenario.pullEverything(from: server, accessToken: account.accessToken) == model)
            #expect(model.keys.filter { $0.table == .mealLogs }.count > 100)
        }
    }
}
