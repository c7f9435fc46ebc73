import DietCore
import Foundation
import GRDB
import TestSupport

@testable import DietStore

/// A fresh in-memory store whose clock stands at 08:00 Berlin on `date`.
func makeStore(
    on date: LocalDate = .ymd(2026, 1, 5),
    onboard profile: Profile? = .alice
)
    throws -> (AppDatabase, FixedClock)
{
    let clock = FixedClock.at(date, 8, in: Zones.berlin)
    let store = try AppDatabase.inMemory(clock: clock)
    if let profile {
        try store.completeOnboarding(profile, timeZone: Zones.berlin)
    }
    return (store, clock)
}

func meal(
    _ name: String = "Porridge",
    kcal: Int = 420,
    protein: Double? = 15,
    carbs: Double? = 60,
    fat: Double? = 12,
    at clock: FixedClock
) throws -> MealEntry {
    try MealEntry(name: name, kcal: kcal, proteinG: protein, carbsG: carbs, fatG: fat, at: clock.now(), in: Zones.berlin)
}

extension AppDatabase {
    func count(_ table: String) throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
