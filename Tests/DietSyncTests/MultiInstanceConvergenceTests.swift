import DietCore
import DietStore
import DietSync
import Foundation
import GRDB
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

/// The convergence property of `ConvergenceTests` with two server instances on one
/// database, as behind a load balancer without sticky sessions: every sync of every device
/// goes to the other instance than its last one, replays cross instances, and old pages come
/// from either. It reuses that suite's `Device` and `SkewedClock`, and
/// TestSupport's `SeededGenerator`.
@Suite("Convergence across two server instances")
struct MultiInstanceConvergenceTests {
    typealias Key = ConvergenceTests.Key

    /// Where each device's next request goes: instance `turn % count`, moved on every use.
    final class Balancer: @unchecked Sendable {
        let instances: [URL]
        private var turns: [String: Int] = [:]
        private(set) var requests: [URL: Int] = [:]

        init(_ instances: [URL]) {
            self.instances = instances
        }

        /// Points `device`'s account at its next instance and returns it.
        @discardableResult
        func route(_ device: Device) throws -> URL {
            let turn = turns[device.name, default: 0]
            turns[device.name] = turn + 1
            let server = instances[turn % instances.count]
            requests[server, default: 0] += 1
            if var account = try device.synchronizer.file.load(), account.server != server {
                account.server = server
                try device.synchronizer.file.save(account)
            }
            return server
        }
    }

    @Test(
        "600 random operations with every sync on the other instance converge to last-writer-wins on every device and both instances",
        arguments: [UInt64(20_261_124), 11]
    )
    func convergesAcrossInstances(seed: UInt64) async throws {
        try await ServerHarness.withLiveServers(count: 2, configure: { $0.bcryptCost = 4 }) { _, servers in
            #expect(Set(servers).count == 2)
            let balancer = Balancer(servers)
            var random = SeededGenerator(seed: seed)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-multi-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            // Given three devices of one account, signed in through different instances.
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
                _ = try await device.synchronizer.signIn(server: servers[index % 2], credentials: credentials, newAccount: index == 0)
            }

            // When they edit, go offline, replay and sync at random, each sync on the other instance.
            for operation in 1...600 {
                let index = Int.random(in: 0..<devices.count, using: &random)
                try await step(operation, on: &devices[index], balancer: balancer, using: &random)
                try observe(devices[index])
            }
            for round in 0..<4 {
                for device in devices {
                    try balancer.route(device)
                    let report = try await device.synchronizer.sync()
                    if round == 3 { #expect(report.pushed == 0 && report.pulled == 0, "\(device.name) still moving: \(report)") }
                }
            }

            // Then every device holds the same rows, the last writes of the model…
            let reference = try devices[0].dump()
            for device in devices.dropFirst() {
                let dump = try device.dump()
                for table in ConvergenceTests.tables { #expect(dump[table] == reference[table], "\(device.name): \(table) differs") }
            }
            for device in devices { try expectModel(model, on: device) }
            // …and each instance serves exactly the model.
            let account = try #require(try devices[0].synchronizer.file.load())
            for server in servers {
                #expect(try await pullEverything(from: server, accessToken: account.accessToken) == model, "\(server) differs")
            }
            #expect(model.keys.filter { $0.table == .mealLogs }.count > 100)
            #expect(servers.allSatisfy { balancer.requests[$0, default: 0] > 40 }, "each instance served requests: \(balancer.requests)")
        }
    }

    /// One random operation of the device, as `ConvergenceTests` draws them.
    private func step(_ operation: Int, on device: inout Device, balancer: Balancer, using random: inout SeededGenerator) async throws {
        let roll = Double.random(in: 0..<1, using: &random)
        switch roll {
        case ..<0.30:
            try device.store.logMeal(
                try MealEntry(
                    name: "Meal \(operation)",
                    kcal: Int.random(in: 50...900, using: &random),
                    at: device.clock.now(),
                    in: Zones.berlin
                )
            )
        case ..<0.48:
            if let id = try device.aliveMeals().randomElement(using: &random) {
                _ = try device.store.editMeal(
                    id,
                    to: try MealEntry(
                        name: "Edited \(operation) on \(device.name)",
                        kcal: Int.random(in: 50...900, using: &random),
                        at: device.clock.now(),
                        in: Zones.berlin
                    )
                )
            }
        case ..<0.56:
            if let id = try device.aliveMeals().randomElement(using: &random) { try device.store.deleteMeal(id, timeZone: Zones.berlin) }
        case ..<0.64:
            let dates: [LocalDate] = [.ymd(2026, 11, 20), .ymd(2026, 11, 21), .ymd(2026, 11, 22)]
            try device.store.logWeight(
                try WeightEntry(
                    date: dates.randomElement(using: &random) ?? dates[0],
                    kg: Double(Int.random(in: 600...800, using: &random)) / 10
                ),
                timeZone: Zones.berlin
            )
        case ..<0.80:
            if device.online {
                try balancer.route(device)
                _ = try await device.synchronizer.sync()
            }
        case ..<0.86:
            if device.online { try await pushOnBoth(device, balancer: balancer) }
        case ..<0.91:
            if device.online { try await pullOldPage(device, balancer: balancer, using: &random) }
        case ..<0.96:
            device.online.toggle()
        default:
            device.clock.jump(by: Double.random(in: -3600...3600, using: &random))
        }
    }

    /// Pushes the pending changes to one instance and replays them on the other (a lost
    /// acknowledgement, retried through the load balancer): the replay must change nothing.
    private func pushOnBoth(_ device: Device, balancer: Balancer) async throws {
        let pending = try device.store.pendingChanges(limit: 50)
        guard !pending.isEmpty, let account = try device.synchronizer.file.load() else { return }
        let request = PushRequest(deviceID: try device.store.syncStatus().deviceID, changes: pending)
        let first = try await ServerAPI(baseURL: try balancer.route(device)).push(request, accessToken: account.accessToken)
        let second = try await ServerAPI(baseURL: try balancer.route(device)).push(request, accessToken: account.accessToken)
        #expect(first.results.count == pending.count)
        #expect(second.results.allSatisfy { $0.status != .applied }, "a push replayed on the other instance was applied again")
        try device.store.acknowledge(pushed: pending, results: second.results)
    }

    /// Merges a page from an older cursor, served by the device's next instance.
    private func pullOldPage(_ device: Device, balancer: Balancer, using random: inout SeededGenerator) async throws {
        guard let account = try device.synchronizer.file.load() else { return }
        let old = Int64.random(in: 0...max(0, try device.store.pullCursor()), using: &random)
        let page = try await ServerAPI(baseURL: try balancer.route(device))
            .pull(cursor: old, limit: Int.random(in: 1...20, using: &random), accessToken: account.accessToken)
        try device.store.merge(page)
    }

    /// The device's rows are exactly the model's last writes (id, HLC, tombstone).
    private func expectModel(_ model: [Key: Change], on device: Device) throws {
        try device.store.reader.read { db in
            for table in ConvergenceTests.tables {
                let expected = model.filter { $0.key.table.rawValue == table }
                let rows = try Row.fetchAll(db, sql: "SELECT id, updated_hlc, deleted FROM \(table)")
                #expect(rows.count == expected.count, "\(device.name): \(table) has \(rows.count) rows, the model \(expected.count)")
                for row in rows {
                    let last = SyncTable(rawValue: table).flatMap { table in
                        UUID(uuidString: row["id"]).flatMap { expected[Key(table: table, id: $0)] }
                    }
                    #expect(last?.hlc.description == row["updated_hlc"], "\(device.name): \(table) row \(row["id"] as String)")
                    #expect(last?.deleted == row["deleted"])
                }
            }
        }
    }

    /// Every change the instance serves, paged from cursor 0.
    private func pullEverything(from server: URL, accessToken: String) async throws -> [Key: Change] {
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
