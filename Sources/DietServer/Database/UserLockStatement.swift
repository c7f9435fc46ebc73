import Foundation
import PostgresNIO

/// Sets the transaction's user and takes the user's write lock (the transaction-scoped
/// advisory lock every write of the user's synced rows takes) in one round trip.
struct UserLockStatement: PostgresPreparedStatement {
    static let name = "wdiet_user_write_lock_v1"
    static let sql = "SELECT set_config('app.user_id', $1, true), pg_advisory_xact_lock(hashtextextended($1, 0))"
    static let bindingDataTypes: [PostgresDataType] = [.text]
    typealias Row = ()

    let userID: UUID

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        // The same text the other takers of the lock hash (`UserWriteLock.take`, the WHOOP writer).
        bindings.append(userID.uuidString)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
