import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

/// What a listener of `StoreChanges` received, read by the test while the listener runs.
private actor Received {
    private(set) var changes: [StoreChange] = []

    func append(_ change: StoreChange) { changes.append(change) }
}

/// A store file in a fresh folder, the app's connection to it, and a watcher of its changes.
private struct Watched {
    let folder: URL
    let path: String
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)
    let app: AppDatabase
    let changes: StoreChanges

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-changes-\(UUID().uuidString)")
        path = folder.appendingPathComponent("w-diet.sqlite").path
        app = try AppDatabase.open(path: path, clock: clock)
        try app.completeOnboarding(.alice, timeZone: Zones.berlin)
        changes = StoreChanges(path: path, interval: .milliseconds(50))
    }

    /// Listens in a task of its own, recording what arrives; cancel the task to stop listening.
    func listen() -> (Received, Task<Void, Never>) {
        let received = Received()
        let stream = changes.changes()
        let task = Task {
            for await change in stream { await received.append(change) }
        }
        return (received, task)
    }

    /// Another process's view of the file: what the CLI opens.
    func otherProcess() throws -> AppDatabase { try AppDatabase.open(path: path, clock: clock) }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("Changes to the store file, from any process")
struct StoreChangesTests {
    @Test("a meal logged through another connection to the file (as the CLI does) is reported")
    func otherConnection() async throws {
        // Given the app listening to its store's changes
        let watched = try Watched()
        defer { watched.remove() }
        let (received, task) = watched.listen()
        defer { task.cancel() }
        // When another connection, standing in for the CLI, logs a meal
        let cli = try watched.otherProcess()
        try cli.logMeal(MealEntry(name: "Porridge", kcal: 420, at: watched.clock.now(), in: Zones.berlin))
        // Then the listener hears of it
        #expect(await eventually { await received.changes.contains(.changed) })
    }

    @Test("the app's own writes are reported too (they use another connection than the watcher's)")
    func ownWrites() async throws {
        let watched = try Watched()
        defer { watched.remove() }
        let (received, task) = watched.listen()
        defer { task.cancel() }
        try watched.app.logMeal(MealEntry(name: "Apple", kcal: 80, at: watched.clock.now(), in: Zones.berlin))
        #expect(await eventually { await received.changes.contains(.changed) })
    }

    @Test("the generation counts the commits seen, looking at once: a commit just made is counted before the next poll")
    func generationChecksAtOnce() async throws {
        // Given a listener (the watcher polls only once a minute here)
        let watched = try Watched()
        defer { watched.remove() }
        let changes = StoreChanges(path: watched.path, interval: .seconds(60))
        let stream = changes.changes()
        defer { _ = stream }
        #expect(changes.generation() == 0)
        // When another connection commits
        try watched.otherProcess().logMeal(MealEntry(name: "Porridge", kcal: 420, at: watched.clock.now(), in: Zones.berlin))
        // Then asking counts it at once, and only once
        #expect(changes.generation() == 1)
        #expect(changes.generation() == 1)
    }

    @Test("a commit made while nobody listened is counted when someone listens again (a tab back from the background)")
    func countsCommitsBetweenListeners() async throws {
        // Given a listener that went away, and the poller stopped
        let watched = try Watched()
        defer { watched.remove() }
        let (_, first) = watched.listen()
        let before = watched.changes.generation()
        first.cancel()
        #expect(await eventually { !watched.changes.isPolling })
        // When the CLI logs a meal meanwhile, and a listener comes back
        try watched.otherProcess().logMeal(MealEntry(name: "Porridge", kcal: 420, at: watched.clock.now(), in: Zones.berlin))
        let (received, second) = watched.listen()
        defer { second.cancel() }
        // Then the meal counts (the returning page can learn that it missed something), yet is no news to the new listener
        #expect(watched.changes.generation() == before + 1)
        try await Task.sleep(for: .milliseconds(200))
        #expect(await received.changes.isEmpty)
    }

    @Test("nothing is reported while nobody writes, even when others read")
    func quietWhenUnchanged() async throws {
        // Given a listener and a reader that only reads
        let watched = try Watched()
        defer { watched.remove() }
        let (received, task) = watched.listen()
        defer { task.cancel() }
        let cli = try watched.otherProcess()
        // When ten polling intervals pass with reads only
        for _ in 0..<10 {
            _ = try cli.settings()
            try await Task.sleep(for: .milliseconds(50))
        }
        // Then nothing was reported
        #expect(await received.changes.isEmpty)
    }

    @Test("when the last listener stops listening, the poller stops; a new listener starts it again")
    func stopsWithoutListeners() async throws {
        // Given two listeners
        let watched = try Watched()
        defer { watched.remove() }
        let (_, first) = watched.listen()
        let (_, second) = watched.listen()
        #expect(watched.changes.isPolling)
        // When one stops, the poller goes on; when both have, it stops
        first.cancel()
        try await Task.sleep(for: .milliseconds(100))
        #expect(watched.changes.isPolling)
        second.cancel()
        #expect(await eventually { !watched.changes.isPolling })
        // Then a new listener is served again
        let (received, third) = watched.listen()
        defer { third.cancel() }
        try watched.otherProcess().logMeal(MealEntry(name: "Pear", kcal: 60, at: watched.clock.now(), in: Zones.berlin))
        #expect(await eventually { await received.changes.contains(.changed) })
    }

    @Test("a removed file is reported once as unavailable; a new file at its place counts as a change")
    func removedFile() async throws {
        // Given a listener
        let watched = try Watched()
        defer { watched.remove() }
        let (received, task) = watched.listen()
        defer { task.cancel() }
        // When the file is removed
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: watched.path + suffix) }
        // Then that is reported, with the path, once
        #expect(await eventually { await !received.changes.isEmpty })
        try await Task.sleep(for: .milliseconds(300))
        let reported = await received.changes
        #expect(reported.count == 1)
        guard case .unavailable(let reason)? = reported.first else {
            Issue.record("expected unavailable, got \(reported)")
            return
        }
        #expect(reason.contains(watched.path))
        // When a store is created there again (a restore), the listener hears of a change
        _ = try watched.otherProcess()
        #expect(await eventually { await received.changes.last == .changed })
    }
}
