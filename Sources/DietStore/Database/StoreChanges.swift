import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `StoreChanges` reports about the database file.
public enum StoreChange: Sendable, Equatable {
    /// A transaction was committed by some connection: this process's or another's (the CLI).
    case changed
    /// The file cannot be watched (removed, unreadable), with the reason; reported once per
    /// problem. Watching goes on: when the file is back, `changed` follows.
    case unavailable(String)
}

/// Commits to one SQLite file from any process. GRDB's observations see only the writes of
/// this process's own `DatabaseWriter`; the CLI writes from another process. So one dedicated,
/// read-only connection asks `PRAGMA data_version`, which changes whenever another connection
/// (any process, any connection of this one) has committed, every `interval`. One poller serves
/// every listener and runs only while someone listens.
public final class StoreChanges: Sendable {
    /// The database file watched.
    public let path: String
    private let interval: Duration
    private let state = Locked(State())

    private struct State {
        var listeners: [UUID: AsyncStream<StoreChange>.Continuation] = [:]
        var poller: (any DispatchSourceTimer)?
        var watcher: Watcher?
        /// Why the file cannot be watched, as last reported.
        var problem: String?
        var generation = 0
        /// Whether the watcher has taken its first look (it stays open when polling stops).
        var started = false
    }

    /// Watches the database at `path`, polling every `interval` while someone listens.
    public init(path: String, interval: Duration = .milliseconds(200)) {
        self.path = path
        self.interval = interval
    }

    /// The changes from the moment of this call, until the caller stops iterating (or cancels
    /// its task). A slow listener misses nothing that matters: pending changes collapse into one.
    public func changes() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        state.withLock { state in
            if state.started {
                // counts what was committed before this call (also while nobody listened), which
                // is no news to this listener
                check(&state)
            } else {
                // opened here, not in the task, so that a commit right after this call is seen
                state.started = true
                state.watcher = try? Watcher(path: path)
                state.problem = state.watcher == nil ? "" : nil
            }
            if state.poller == nil {
                // a timer on a queue of its own, not a task: requests that block the cooperative
                // threads with synchronous work must not hold live updates up
                let poller = DispatchSource.makeTimerSource(queue: Self.queue)
                let milliseconds = Int(interval / .milliseconds(1))
                poller.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
                poller.setEventHandler { [weak self] in self?.check() }
                poller.resume()
                state.poller = poller
            }
            state.listeners[id] = continuation
        }
        return stream
    }

    private static let queue = DispatchQueue(label: "w-diet.store-changes")

    deinit {
        state.withLock { $0.poller?.cancel() }
    }

    /// Whether the poller runs (it stops when the last listener goes).
    public var isPolling: Bool { state.withLock { $0.poller != nil } }

    /// How many changes were seen so far, counting those committed up to this call (it checks
    /// at once): a change reported later with a higher generation was committed after it.
    /// Commits made while nobody listened count when someone listens again: the watcher's
    /// connection stays open, idle, between listeners.
    public func generation() -> Int {
        state.withLock { state in
            if state.started { check(&state) }
            return state.generation
        }
    }

    private func remove(_ id: UUID) {
        state.withLock { state in
            state.listeners[id] = nil
            if state.listeners.isEmpty {
                state.poller?.cancel()
                state.poller = nil
            }
        }
    }

    private func check() {
        state.withLock { check(&$0) }
    }

    /// One look at the file. A file replaced by another (a restore, a copy) is reopened and
    /// counts as a change; a missing or unreadable file is reported once and retried.
    private func check(_ state: inout State) {
        var change: StoreChange?
        do {
            let identity = try Watcher.identity(of: path)
            if let current = state.watcher, current.identity == identity {
                if try current.changed() { change = .changed }
            } else {
                let replaced = state.watcher != nil || state.problem != nil
                state.watcher = try Watcher(path: path)
                state.problem = nil
                if replaced { change = .changed }
            }
        } catch {
            state.watcher = nil
            let reason = "\(error)"
            if state.problem != reason {
                state.problem = reason
                change = .unavailable(reason)
            }
        }
        guard let change else { return }
        if change == .changed { state.generation += 1 }
        for continuation in state.listeners.values { continuation.yield(change) }
    }
}

/// One read-only connection to the file and the last `data_version` it saw. It must stay the
/// same connection: the pragma compares with that connection's previous answer.
private final class Watcher: @unchecked Sendable {
    /// The file's device and inode when opened: another file at the same path is another store.
    let identity: FileIdentity
    private let queue: DatabaseQueue
    private var version: Int

    init(path: String) throws {
        identity = try Self.identity(of: path)
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(1)
        configuration.label = "w-diet.changes"
        queue = try DatabaseQueue(path: path, configuration: configuration)
        version = try queue.inDatabase(Self.dataVersion)
    }

    /// Whether a commit happened since the last call.
    func changed() throws -> Bool {
        let now = try queue.inDatabase(Self.dataVersion)
        defer { version = now }
        return now != version
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    static func identity(of path: String) throws -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StoreChangesError(path: path, reason: String(cString: strerror(errno)))
        }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
}

/// The database file cannot be watched.
struct StoreChangesError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot watch \(path): \(reason)" }
}
