import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

/// The row contract the server enforces and what a device can read are one rule: a row the
/// contract accepts is one this device stores and reads; a row no device can read is one the
/// contract refuses. Otherwise a pushed row could reach every device of the account and be set
/// aside there (a new device then had no profile at all).
@Suite("The row contract and the device's reading agree")
struct ContractAgreementTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)

    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
    }

    /// Whether the device's own decoders (without the contract) can store and read `change`.
    func deviceReads(_ change: Change) throws -> Bool {
        try store().writer.write { db in
            if case .success = try AppDatabase.store(change, db) { return true }
            return false
        }
    }

    @Test("every unreadable case is one the device's decoders refuse, and the contract refuses it too", arguments: UnreadableRows.cases)
    func unreadableCases(_ unreadable: UnreadableRows.Case) throws {
        if unreadable.unreadable {
            #expect(try !deviceReads(unreadable.change), "the device can read it: not a real case")
        }
        let store = try store()
        let outcome = try store.merge(PullResponse(changes: [unreadable.change], nextCursor: 1, hasMore: false))
        #expect(outcome.setAside == 1)
        #expect(try store.syncStatus().setAside.first?.reason.hasPrefix("\(unreadable.change.table.rawValue).\(unreadable.field):") == true)
    }

    @Test("the valid rows are read by the device")
    func validRows() throws {
        for table in UnreadableRows.validRows.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            #expect(try deviceReads(UnreadableRows.change(table)), "\(table.rawValue)")
        }
    }

    /// Rows drawn from values at and beyond every limit: whatever the contract accepts, the
    /// device reads. Both outcomes occur often, so neither side is trivially strict or lax.
    @Test("of 4,000 rows drawn at the limits, every one the contract accepts is one the device reads")
    func drawnRows() throws {
        var generator = SeededGenerator(seed: 32)
        var accepted = 0
        var refused = 0
        for _ in 0..<4000 {
            let change = Self.drawn(using: &generator)
            guard RowContract.violation(in: change, now: nil) == nil else {
                refused += 1
                continue
            }
            accepted += 1
            #expect(try deviceReads(change), "\(change.table.rawValue): \(change.row)")
        }
        #expect(accepted > 400 && refused > 400, "accepted \(accepted), refused \(refused)")
    }

    static let times = ["00:00", "05:59", "06:00", "12:00", "12:30", "15:00", "18:00", "22:00", "23:59", "24:00", "7:00", "12:60", ""]
    /// Names of eating moments at and beyond the limits: a tab reads as a space, blanks and
    /// 31 characters are refused.
    static let names: [JSONValue] = [
        .string("Brunch"), .null, .string(""), .string("  "), .string(String(repeating: "x", count: 30)),
        .string(String(repeating: "x", count: 31)), .string("Kaffee\tund Kuchen"), .string(" Abendbrot "), .string("a\u{7}b"), .number(5),
    ]
    static let dates = ["2026-01-01", "2026-01-03", "2026-02-01", "2026-02-30", "1899-12-31", "2026-1-1"]

    static func drawn(using generator: inout SeededGenerator) -> Change {
        func pick<T>(_ values: [T]) -> T { values.randomElement(using: &generator)! }
        func text(_ value: JSONValue) -> JSONValue {
            .string(String(decoding: try! JSONEncoder().encode(value), as: UTF8.self))
        }
        func number(_ values: [Double]) -> JSONValue {
            let value = pick(values)
            return Int.random(in: 0..<12, using: &generator) == 0 ? .string(String(value)) : .number(value)
        }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            var window: [String: JSONValue] = ["start": .string(pick(times)), "end": .string(pick(times))]
            let moments = (0..<Int.random(in: 1...6, using: &generator)).map { _ in JSONValue.string(pick(times)) }
            if Int.random(in: 0..<10, using: &generator) > 0 { window["moments"] = .array(moments) }
            if Int.random(in: 0..<20, using: &generator) == 0 { window["extra"] = .bool(true) }
            if Int.random(in: 0..<2, using: &generator) == 0 {
                window["names"] = .array((0..<Int.random(in: 0...6, using: &generator)).map { _ in pick(Self.names) })
            }
            return UnreadableRows.change(.profile, ["eating_window": text(.object(window))])
        case 1:
            var goals: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                goals[pick(["deficit", "maintenance", "surplus", "bulk"])] = .object([
                    "kcal": number([0, 1199, 1200, 1499, 1500, 1500.5, 2400, 6000, 6001]),
                    "protein_g": number([-1, 0, 120.5, 999, 999.5]),
                    "carbs_g": number([0, 140]),
                    "fat_g": number([0, 45, 1000]),
                ])
            }
            return UnreadableRows.change(
                .profile,
                [
                    "sex": .string(pick(["male", "female", "other"])), "locked_goals": text(.object(goals)),
                    "weight_kg": number([72.5, 72.55, 30, 200]),
                ]
            )
        case 2:
            let periods = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                JSONValue.object(["from": .string(pick(dates)), "until": .string(pick(dates))])
            }
            return UnreadableRows.change(.profile, ["recovery_periods": text(.array(periods))])
        case 3:
            let portions = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                var portion: [String: JSONValue] = ["amount": number([-1, 0, 0.5, 1, 1000, 1001]), "grams": number([-5, 0, 0.1, 120, 5000, 5001])]
                if Int.random(in: 0..<10, using: &generator) > 0 { portion["name"] = .string(pick(["Stück", "", " ", "Scheibe"])) }
                if Int.random(in: 0..<5, using: &generator) == 0 { portion["reference"] = .string(pick(["slice", ""])) }
                return JSONValue.object(portion)
            }
            return UnreadableRows.change(.customFoods, ["portions": text(.array(portions))])
        case 4:
            let items = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                JSONValue.object([
                    "food_id": .string(pick(["8120", "", "a b", "0c7d5e1a-food"])), "grams": number([-5, 0, 0.05, 0.1, 60, 5000, 5000.5]),
                ])
            }
            return UnreadableRows.change(.recipes, ["items": text(.array(items))])
        default:
            return UnreadableRows.change(.weightEntries, ["weight_kg": number([29.9, 30, 72.4, 72.45, 72.55, 200, 200.1])])
        }
    }
}
