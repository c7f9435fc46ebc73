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
            let scenario = ConvergenceScenario(route: { try balancer.route($0) })
            for operation in 1...600 {
                let index = Int.random(in: 0..<devices.count, using: &random)
                try await scenario.step(operation, on: &devices[index], using: &random)
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
            for device in devices { try await ConvergenceScenario.expectModel(model, on: device) }
            // …and each instance serves exactly the model.
            let account = try #require(try devices[0].synchronizer.file.load())
            for server in servers {
                #expect(try await ConvergenceScenario.pullEverything(from: server, accessToken: account.accessToken) == model, "\(server) differs")
            }
            #expect(model.keys.filter { $0.table == .mealLogs }.count > 100)
            #expect(servers.allSatisfy { balancer.requests[$0, default: 0] > 40 }, "each instance served requests: \(balancer.requests)")
        }
    }
}
