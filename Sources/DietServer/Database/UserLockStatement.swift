import Foundation
import PostgresNIO

/// Sets the transaction's user and takes the user's write lock (the transaction-scoped
/// advisory lock every write of the user's synced rows takes) in one round trip. It also lets
/// the transaction's prepared statements (the push statement) run their generic plan rather
/// than planning each call again: planning the push statement took 1.7 ms for three rows and
/// 3.2 ms for 500, more than running it, while the user's lock was held. Statements without
/// parameters, and other transactions, are not affected.
struct UserLockStatement: PostgresPreparedStatement {
    static let name = "wdiet_user_write_lock_v1"
    static let sql = """
        SELECT set_config('app.user_id', $1, true), set_config('plan_cache_mode', 'force_generic_plan', true),
               pg_advisory_xact_lock(hashtextextended($1, 0))
        """
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
