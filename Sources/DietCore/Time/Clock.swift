import Foundation

/// The source of "now" for every rule that needs it (docs/architecture.md, "Time").
///
/// Logic never calls `Date()`: it takes a `Clock` and a `TimeZone`, so tests can fix and
/// advance time, cross midnight, DST changes and time-zone moves deterministically.
public protocol Clock: Sendable {
    func now() -> Date
}

extension Clock {
    /// Today's civil date in `timeZone`.
    public func today(in timeZone: TimeZone) -> LocalDate {
        LocalDate(now(), in: timeZone)
    }
}

/// The real wall clock. The only place in the code base that reads the system time.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until it is moved: for tests and for replaying scenarios.
public final class FixedClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ instant: Date) {
        current = instant
    }

    /// A clock at `time` on `date` in `timeZone`.
    public convenience init(_ date: LocalDate, at time: TimeOfDay, in timeZone: TimeZone) {
        self.init(date.instant(at: time, in: timeZone))
    }

    public func now() -> Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `instant`, e.g. to simulate a user moving the device clock back.
    public func set(_ instant: Date) {
        lock.withLock { current = instant }
    }
}
