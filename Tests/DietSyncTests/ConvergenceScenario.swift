import DietCore
import DietStore
import DietSync
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

/// The random operations of the convergence suites and their checks: devices log, edit and
/// delete meals, log weights, sync, replay a push, merge an old page, go offline and move
/// their clocks; the model keeps the last write of every row.
///
/// `route` picks the server of a device's next request (nil: the account's own server); the
/// multi-instance suite moves each device to another instance on every request.
struct ConvergenceScenario {
    typealias Key = ConvergenceTests.Key

    let route: (Device) throws -> URL?

    /// One random operation of `device`.
    func step(_ operation: Int, on device: inout Device, using random: inout SeededGenerator) async throws {
        let roll = Double.random(in: 0..<1, using: &random)
        switch roll {
        case ..<0.30:
            let entry = try MealEntry(
                name: "Meal \(operation)",
                kcal: Int.random(in: 50...900, using: &random),
                at: device.clock.now(),
                in: Zones.berlin
            )
            try device.store.logMeal(entry)
        case ..<0.48:
            if let id = try device.aliveMeals().randomElement(using: &random) {
                let entry = try MealEntry(
                    name: "Edited \(operation) on \(device.name)",
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
            let dates: [LocalDate] = [.ymd(2026, 11, 20), .ymd(2026, 11, 21), .ymd(2026, 11, 22)]
            let entry = try WeightEntry(
                date: dates.randomElement(using: &random) ?? dates[0],
                kg: Double(Int.random(in: 600...800, using: &random)) / 10
            )
            try device.store.logWeight(entry, timeZone: Zones.berlin)
        case ..<0.80:
            if device.online {
                _ = try route(device)
                _ = try await device.synchronizer.sync()
            }
        case ..<0.86:
            if device.online { try await pushTwice(device) }
        case ..<0.91:
            if device.online { try await pullOldPage(device, using: &random) }
        case ..<0.96:
            device.online.toggle()
        default:
            device.clock.jump(by: Double.random(in: -3600...3600, using: &random))
        }
    }

    /// Pushes the pending changes twice (a lost acknowledgement, retried): the replay must
    /// change nothing.
    private func pushTwice(_ device: Device) async throws {
        let pending = try device.store.pendingChanges(limit: 50)
        guard !pending.isEmpty, let account = try device.synchronizer.file.load() else { return }
        let request = PushRequest(deviceID: try device.store.syncStatus().deviceID, changes: pending)
        let first = try await ServerAPI(baseURL: try route(device) ?? account.server).push(request, accessToken: account.accessToken)
        let second = try await ServerAPI(baseURL: try route(device) ?? account.server).push(request, accessToken: account.accessToken)
        #expect(second.results.allSatisfy { $0.status != .applied }, "a replayed push was applied again")
        #expect(first.results.count == pending.count)
        try device.store.acknowledge(pushed: pending, results: second.results)
    }

    /// Merges a page from an older cursor (a late or repeated delivery).
    private func pullOldPage(_ device: Device, using random: inout SeededGenerator) async throws {
        guard let account = try device.synchronizer.file.load() else { return }
        let old = Int64.random(in: 0...max(0, try device.store.pullCursor()), using: &random)
        let server = try route(device) ?? account.server
        let page = try await ServerAPI(baseURL: server).pull(
            cursor: old,
            limit: Int.random(in: 1...20, using: &random),
            accessToken: account.accessToken
        )
        try device.store.merge(page)
    }

    /// The device's rows are exactly the model's last writes (id, HLC, tombstone).
    static func expectModel(_ model: [Key: Change], on device: Device) async throws {
        try await device.store.reader.read { db in
            for table in ConvergenceTests.tables {
                let rows = try Row.fetchAll(db, sql: "SELECT id, updated_hlc, deleted FROM \(table)")
                let expected = model.filter { $0.key.table.rawValue == table }
                #expect(rows.count == expected.count, "\(device.name): \(table) has \(rows.count) rows, the model \(expected.count)")
                for row in rows {
                    guard let syncTable = SyncTable(rawValue: table), let id = UUID(uuidString: row["id"]),
                        let last = expected[Key(table: syncTable, id: id)]
                    else {
                        Issue.record("\(device.name): \(table) row \(row["id"] as String) is not in the model")
                        continue
                    }
                    #expect(row["updated_hlc"] == last.hlc.description)
                    #expect(row["deleted"] == last.deleted)
                }
            }
        }
    }

    /// Every change `server` serves the account, paged from cursor 0.
    static func pullEverything(from server: URL, accessToken: String) async throws -> [Key: Change] {
        let api = ServerAPI(baseURL: server)
        var changes: [Key: Change] = [:]
        var cursor: Int64 = 0
        while true {
            let page = try await api.pull(cursor: cursor, limit: 500, accessToken: accessToken)
            for change in page.changes { changes[Key(table: change.table, id: change.id)] = change }
            cursor = page.nextCursor
            if !page.hasMore { return changes }
        }
    }
}
