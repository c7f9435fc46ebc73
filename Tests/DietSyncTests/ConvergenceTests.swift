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

            let weightDates: [LocalDate] = [.ymd(2026, 11, 20), .ymd(2026, 11, 21), .ymd(2026, 11, 22)]
            var operations = 0
            while operations < 600 {
                operations += 1
                let index = Int.random(in: 0..<devices.count, using: &random)
                let device = devices[index]
                let roll = Double.random(in: 0..<1, using: &random)
                switch roll {
                case ..<0.30:
                    let entry = try MealEntry(
                        name: "Meal \(operations)",
                        kcal: Int.random(in: 50...900, using: &random),
                        at: device.clock.now(),
                        in: Zones.berlin
                    )
                    try device.store.logMeal(entry)
                case ..<0.48:
                    if let id = try device.aliveMeals().randomElement(using: &random) {
                        let entry = try MealEntry(
                            name: "Edited \(operations) on \(device.name)",
                            kcal: Int.random(in: 50...900, using: &random),
                            at: device.clock.now(),
                            in: Zones.berlin
                        )
                        _ = try device.store.editMeal(id, to: entry)
                    }
                case ..<0.56:
                    if let id = try device.aliveMeals().randomElement(using: &random) {
                        try device.store.deleteMeal(id, timeZone: Zones.berlin)
                    }
                case ..<0.64:
                    let entry = try WeightEntry(
                        date: weightDates.randomElement(using: &random) ?? weightDates[0],
                        kg: Double(Int.random(in: 600...800, using: &random)) / 10
                    )
                    try device.store.logWeight(entry, timeZone: Zones.berlin)
                case ..<0.80:
                    if device.online { _ = try await device.synchronizer.sync() }
                case ..<0.86:
                    if device.online { try await pushTwice(device) }
                case ..<0.91:
                    if device.online { try await pullOldPage(device, using: &random) }
                case ..<0.96:
                    devices[index].online.toggle()
                default:
                    device.clock.jump(by: Double.random(in: -3600...3600, using: &random))
                }
                try observe(device)
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
            let finalModel = model
            for device in devices {
                try await device.store.reader.read { db in
                    for table in Self.tables {
                        let rows = try Row.fetchAll(db, sql: "SELECT id, updated_hlc, deleted FROM \(table)")
                        let expected = finalModel.filter { $0.key.table.rawValue == table }
                        #expect(rows.count == expected.count, "\(device.name): \(table) has \(rows.count) rows, the model \(expected.count)")
                        for row in rows {
                            guard let id = UUID(uuidString: row["id"]), let last = expected[Key(table: SyncTable(rawValue: table)!, id: id)] else {
                                Issue.record("\(device.name): \(table) row \(row["id"] as String) is not in the model")
                                continue
                            }
                            #expect(row["updated_hlc"] == last.hlc.description)
                            #expect(row["deleted"] == last.deleted)
                        }
                    }
                }
            }
            // …and the server holds exactly the model.
            let account = try #require(try devices[0].synchronizer.file.load())
            let api = ServerAPI(baseURL: server)
            var onServer: [Key: Change] = [:]
            var cursor: Int64 = 0
            while true {
                let page = try await api.pull(cursor: cursor, limit: 500, accessToken: account.accessToken)
                for change in page.changes { onServer[Key(table: change.table, id: change.id)] = change }
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            #expect(onServer == model)
            #expect(model.keys.filter { $0.table == .mealLogs }.count > 100)
        }
    }

    /// Pushes the pending changes twice (a lost acknowledgement); the replay must change nothing.
    private func pushTwice(_ device: Device) async throws {
        let pending = try device.store.pendingChanges(limit: 50)
        guard !pending.isEmpty, let account = try device.synchronizer.file.load() else { return }
        let api = ServerAPI(baseURL: account.server)
        let request = PushRequest(deviceID: try device.store.syncStatus().deviceID, changes: pending)
        let first = try await api.push(request, accessToken: account.accessToken)
        let second = try await api.push(request, accessToken: account.accessToken)
        #expect(second.results.allSatisfy { $0.status != .applied }, "a replayed push was applied again")
        #expect(first.results.count == pending.count)
        try device.store.acknowledge(pushed: pending, results: second.results)
    }

    /// Merges a page from an older cursor (a late or repeated delivery).
    private func pullOldPage(_ device: Device, using random: inout SeededGenerator) async throws {
        guard let account = try device.synchronizer.file.load() else { return }
        let cursor = try device.store.pullCursor()
        let old = Int64.random(in: 0...max(0, cursor), using: &random)
        let page = try await ServerAPI(baseURL: account.server).pull(
            cursor: old,
            limit: Int.random(in: 1...20, using: &random),
            accessToken: account.accessToken
        )
        try device.store.merge(page)
    }
}
