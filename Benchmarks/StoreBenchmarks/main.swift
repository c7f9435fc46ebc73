import DietCore
import DietStore
import FoodKit
import Foundation
import TestSupport

// Seeds five years of a realistic user and measures the today snapshot (in process) and the
// cold `wdiet today --json` command. Run by scripts/bench; prints a report.

struct Percentiles {
    let samples: [Double]

    func value(_ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    var line: String {
        String(
            format: "p50 %.3f ms · p95 %.3f ms · p99 %.3f ms · max %.3f ms (n = %d)",
            value(0.5),
            value(0.95),
            value(0.99),
            samples.max() ?? 0,
            samples.count
        )
    }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// A literal time; the benchmark only uses valid ones.
func at(_ hour: Int, _ minute: Int = 0) -> TimeOfDay {
    guard let time = TimeOfDay(hour: hour, minute: minute) else { preconditionFailure("invalid time \(hour):\(minute)") }
    return time
}

let arguments = CommandLine.arguments
let wdiet = arguments.count > 1 ? arguments[1] : nil
let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-bench-\(UUID().uuidString)")
let path = folder.appendingPathComponent("w-diet.sqlite").path
defer { try? FileManager.default.removeItem(at: folder) }

let start = LocalDate(dayNumber: LocalDate(Date(timeIntervalSince1970: 1_637_625_600), in: zone).dayNumber)
let days = 5 * 365 + 1
let clock = FixedClock(start.instant(at: at(7), in: zone))
let store = try AppDatabase.open(path: path, clock: clock)
let profile = try Profile(sex: .female, age: 34, heightCm: 168, weightKg: 72.5, activityLevel: .light, goal: .lose, goalWeightKg: 65)
try store.completeOnboarding(profile, timeZone: zone)

// Seeded, so every run seeds the same data.
var random = SeededGenerator(seed: 42)
var meals = 0
var weights = 0
let seedStart = ContinuousClock.now
var weight = 72.5
for offset in 0..<days {
    let date = start.adding(days: offset)
    if Double.random(in: 0..<1, using: &random) < 0.85 {
        weight = min(95, max(55, weight + Double.random(in: -0.3...0.28, using: &random)))
        clock.set(date.instant(at: at(7, 15), in: zone))
        try store.logWeight(try WeightEntry(date: date, kg: (weight * 10).rounded() / 10), timeZone: zone)
        weights += 1
    }
    for hour in [8, 12, 15, 19] where Double.random(in: 0..<1, using: &random) < 0.95 {
        let protein = Double(Int.random(in: 5...50, using: &random))
        let carbs = Double(Int.random(in: 10...80, using: &random))
        let fat = Double(Int.random(in: 2...30, using: &random))
        let instant = date.instant(at: at(hour, Int.random(in: 0...59, using: &random)), in: zone)
        clock.set(instant)
        try store.logMeal(
            try MealEntry(
                name: "Meal \(offset)-\(hour)",
                kcal: Int(4 * protein + 4 * carbs + 9 * fat),
                proteinG: protein,
                carbsG: carbs,
                fatG: fat,
                at: instant,
                in: zone
            )
        )
        meals += 1
    }
}
let seedTime = milliseconds(ContinuousClock.now - seedStart) / 1000
let today = start.adding(days: days - 1)
clock.set(today.instant(at: at(20), in: zone))
try store.checkCycle(timeZone: zone)

print("Seeded \(days) days: \(meals) meals, \(weights) weights in \(String(format: "%.1f", seedTime)) s")
let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print("Database file: \(size / 1024) KiB (plus WAL)")

for _ in 0..<100 { _ = try store.today(timeZone: zone) }
var samples: [Double] = []
for _ in 0..<2000 {
    let began = ContinuousClock.now
    _ = try store.today(timeZone: zone)
    samples.append(milliseconds(ContinuousClock.now - began))
}
print("Today snapshot, in process: " + Percentiles(samples: samples).line)

// a past day's diary (docs/rules.md §4): any day of the five years, drawn evenly
var generator = SystemRandomNumberGenerator()
samples = []
for _ in 0..<2000 {
    let past = start.adding(days: Int.random(in: 0..<(days - 1), using: &generator))
    let began = ContinuousClock.now
    _ = try store.day(past, timeZone: zone)
    samples.append(milliseconds(ContinuousClock.now - began))
}
print("A past day's diary, in process: " + Percentiles(samples: samples).line)

for (query, plan) in try store.todayQueryPlans(timeZone: zone) {
    print("\nQuery: " + query.replacingOccurrences(of: "\n", with: " "))
    for line in plan { print("  plan: " + line) }
}

// Food search: relevance per language and timings as typed (SearchScores.swift).
print("")
let queries = try SearchScores.run(store: store, zone: zone)

// The meal parser over the labelled phrase set (ParserScores.swift).
try ParserScores.run(store: store)
// German searches and meals in words against labels from BLS 4.0 (GermanEverydayScores.swift).
try GermanEverydayScores.run(zone: zone)
let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/DietStore/Resources/foods.sqlite")
if let bytes = try? FileManager.default.attributesOfItem(atPath: catalog.path)[.size] as? Int {
    print(String(format: "Food database: %.1f MB", Double(bytes) / 1e6))
}

/// Runs a program and waits for it with posix_spawn and waitpid: Foundation's Process polls
/// its run loop while waiting, which would add tens of milliseconds to the measurement.
func spawnAndWait(_ path: String, _ arguments: [String]) -> Int32 {
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return status
}

if let wdiet {
    var cold: [Double] = []
    let arguments = ["today", "--json", "--database", path, "--time-zone", "Europe/Berlin", "--now", "\(today.iso)T20:00"]
    for _ in 0..<50 {
        let began = ContinuousClock.now
        let status = spawnAndWait(wdiet, arguments)
        cold.append(milliseconds(ContinuousClock.now - began))
        guard status == 0 else {
            print("wdiet today failed with status \(status)")
            break
        }
    }
    print("\n`wdiet today --json`, whole process: " + Percentiles(samples: cold).line)
}

try await WebBenchmark.run(store: store, path: path, clock: clock, zone: zone, queries: queries)
