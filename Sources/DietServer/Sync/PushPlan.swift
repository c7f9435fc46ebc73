import Foundation
import SyncProtocol

extension SyncRepository {
    /// A push, checked and reduced to the newest change per row before it touches the
    /// database. An invalid change is refused with its reason; the valid rest goes on.
    struct Plan: Sendable {
        struct Key: Hashable, Sendable {
            let table: SyncTable
            let id: UUID
        }

        let changes: [Change]
        /// Per change, in request order: nil if it goes to the database, or why it was refused.
        let rejections: [String?]
        /// The newest valid change of each row.
        let candidates: [Key: Change]

        /// Checks every change against the row contract at `now` (the server's clock).
        init(changes: [Change], now: Date) {
            var rejections: [String?] = []
            var candidates: [Key: Change] = [:]
            for change in changes {
                let problem = Self.problem(with: change, now: now)
                rejections.append(problem)
                let key = Key(table: change.table, id: change.id)
                if problem == nil, candidates[key].map({ change.hlc > $0.hlc }) ?? true { candidates[key] = change }
            }
            self.changes = changes
            self.rejections = rejections
            self.candidates = candidates
        }

        /// Why `change` cannot be stored, or nil: the first rule of the row contract it breaks
        /// (types, ranges, lengths, ids, dates, control characters anywhere, the clock stamp).
        static func problem(with change: Change, now: Date) -> String? {
            RowContract.violation(in: change, now: now)?.description
        }

        /// The candidates in the order they were pushed, so they take sequence numbers (and
        /// reach other devices) in that order.
        var candidatesInOrder: [Change] {
            var emitted = Set<Key>()
            return changes.filter { change in
                let key = Key(table: change.table, id: change.id)
                guard candidates[key]?.hlc == change.hlc, !emitted.contains(key) else { return false }
                emitted.insert(key)
                return true
            }
        }

        /// One result per pushed change: applied if it is the change that was stored.
        func results(applied: Set<Key>) -> [PushResult] {
            zip(changes, rejections).map { change, rejection in
                let key = Key(table: change.table, id: change.id)
                if let rejection { return PushResult(id: change.id, table: change.table, status: .rejected, message: rejection) }
                let stored = applied.contains(key) && candidates[key]?.hlc == change.hlc
                return PushResult(id: change.id, table: change.table, status: stored ? .applied : .ignored)
            }
        }
    }
}
