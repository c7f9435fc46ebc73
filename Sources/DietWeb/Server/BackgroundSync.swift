import DietStore
import DietSync
import Foundation

/// Every sync the web app runs, one at a time: the quiet sync after a change made in the
/// browser (as the CLI does after a command: one attempt, skipped during the pause after a
/// failure, never delaying the page) and the account actions of settings. Two syncs of one
/// device at once would race on its rotating refresh token, which the server takes for a
/// stolen one; so they wait for each other.
actor BackgroundSync {
    private let synchronizer: Synchronizer
    private let file: AccountFile
    private let automatic: Bool
    private var running: Task<Void, Never>?
    /// An account action holds the line.
    private var exclusive = false
    /// Another change arrived while busy: sync once more afterwards.
    private var again = false

    init(store: AppDatabase, databasePath: String, automatic: Bool) {
        file = AccountFile(databasePath: databasePath)
        synchronizer = Synchronizer(store: store, file: file)
        self.automatic = automatic
    }

    /// A change was saved: sync it soon, unless automatic sync is off or there is no account.
    func changed() {
        guard automatic, FileManager.default.fileExists(atPath: file.path) else { return }
        guard running == nil, !exclusive else {
            again = true
            return
        }
        running = Task { await self.quietly() }
    }

    /// Runs an account action (sign in, sync now, sign out, delete) after any sync in
    /// progress, with no other sync beside it.
    func exclusively<T: Sendable>(_ action: @Sendable (Synchronizer) async throws -> T) async throws -> T {
        while exclusive || running != nil {
            if let task = running { await task.value } else { await Task.yield() }
        }
        exclusive = true
        defer {
            exclusive = false
            if again {
                again = false
                changed()
            }
        }
        return try await action(synchronizer)
    }

    /// Waits until no sync runs (tests, shutdown).
    func settle() async {
        while exclusive || running != nil {
            if let task = running { await task.value } else { await Task.yield() }
        }
    }

    private func quietly() async {
        repeat {
            again = false
            _ = await synchronizer.syncIfDue()
        } while again
        running = nil
    }
}
