import GRDB

extension Migrations {
    /// Recovery mode (SPEC §8): the profile's switch and mindful meals.
    static func v12RecoveryMode(_ db: Database) throws {}
}
