import GRDB

extension Migrations {
    /// Badges earned (SPEC §5): kept so they are never lost and announced once.
    static func v13Badges(_ db: Database) throws {}
}
